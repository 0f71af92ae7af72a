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

describe("the server's first reads (decision 161)", () => {
  beforeEach(() => vi.resetModules());

  it("stand in for the first call to each path, once, with the list's Link header", async () => {
    const screen = await import("./first-screen");
    screen.keepFirstReads({ "/api/x/leads?type=new": { body: [{ id: "a" }], link: '</api/x/leads?type=new&cursor=c>; rel="next"' } }, 0);
    const first = screen.takeFirstRead("/api/x/leads?type=new", 100)!;
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual([{ id: "a" }]);
    expect(first.headers.get("link")).toBe('</api/x/leads?type=new&cursor=c>; rel="next"');
    // A refetch asks the API; another path was never answered.
    expect(screen.takeFirstRead("/api/x/leads?type=new", 200)).toBeNull();
    expect(screen.takeFirstRead("/api/x/metrics", 200)).toBeNull();
  });

  it("are not used once the page has been open too long for them to be news", async () => {
    const screen = await import("./first-screen");
    screen.keepFirstReads({ "/api/x/metrics": { body: { n: 1 } } }, 0);
    expect(screen.takeFirstRead("/api/x/metrics", screen.FIRST_READS_FRESH_MS + 1)).toBeNull();
  });
});
