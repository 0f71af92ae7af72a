import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// What the first screen does not need waits for the page's own answers (issue 12): the menus', bell's and socket's
// code must not download and run beside the dashboard's six reads.

describe("markFirstScreenDrawn", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.resetModules(); // `drawn` is module state: a fresh module per test
    vi.stubGlobal("window", { setTimeout }); // no requestIdleCallback: the module falls back to a timer
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  async function drawnAfter(fetching: () => number, ms: number): Promise<boolean> {
    const screen = await import("./first-screen");
    screen.markFirstScreenDrawn(fetching);
    await vi.advanceTimersByTimeAsync(ms);
    return screen.firstScreenDrawnNow();
  }

  it("waits while the page's reads are in flight", async () => {
    expect(await drawnAfter(() => 2, 1000)).toBe(false);
  });

  it("goes once nothing is in flight, after an idle moment", async () => {
    let inFlight = 3;
    const screen = await import("./first-screen");
    screen.markFirstScreenDrawn(() => inFlight);
    await vi.advanceTimersByTimeAsync(500);
    expect(screen.firstScreenDrawnNow()).toBe(false);
    inFlight = 0;
    await vi.advanceTimersByTimeAsync(300);
    expect(screen.firstScreenDrawnNow()).toBe(true);
  });

  it("does not wait for ever on a slow server", async () => {
    expect(await drawnAfter(() => 1, 3500)).toBe(true);
  });

  it("runs what waits for the first screen once, when it is drawn", async () => {
    const screen = await import("./first-screen");
    const run = vi.fn();
    screen.whenFirstScreenDrawn(run);
    screen.markFirstScreenDrawn(() => 1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2500);
    expect(run).toHaveBeenCalledTimes(1);
    screen.whenFirstScreenDrawn(run); // already drawn: at once
    expect(run).toHaveBeenCalledTimes(2);
  });
});
