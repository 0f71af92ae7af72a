import { describe, expect, it } from "vitest";
import { isChunkLoadError, reloadForNewBuild } from "./stale-build";

describe("a chunk of a replaced build", () => {
  it("is recognised by the messages of Chromium, Firefox and Safari, and nothing else is", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: https://x/assets/LeadDetailPage-abc.js"))).toBe(true);
    expect(isChunkLoadError(new TypeError("error loading dynamically imported module: https://x/assets/a.js"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Unable to preload CSS for /assets/a.css"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });

  it("reloads the page once, not again within a minute, and again after that", () => {
    const stored = new Map<string, string>();
    const storage = { getItem: (k: string) => stored.get(k) ?? null, setItem: (k: string, v: string) => void stored.set(k, v) };
    let reloads = 0;
    const reload = () => void reloads++;
    expect(reloadForNewBuild(storage, reload, 1_000_000)).toBe(true);
    expect(reloadForNewBuild(storage, reload, 1_030_000)).toBe(false);
    expect(reloads).toBe(1);
    expect(reloadForNewBuild(storage, reload, 1_061_000)).toBe(true);
    expect(reloads).toBe(2);
  });
});
