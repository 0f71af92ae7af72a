import { beforeEach, describe, expect, it } from "vitest";
import { clearPersonalStorage, takeRedirectPath } from "./session-storage";

// A minimal in-memory Web Storage for Node (the browser's own is exercised by the e2e logout test).
class MemoryStorage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.items.set(k, String(v));
  }
  removeItem(k: string) {
    this.items.delete(k);
  }
  clear() {
    this.items.clear();
  }
  keys() {
    return [...this.items.keys()].sort();
  }
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  (globalThis as { localStorage?: unknown }).localStorage = storage;
});

describe("local storage at logout (part 1 §4)", () => {
  it("removes emailRedirectPath and every key naming user, auth or dealership, keeping the rest", () => {
    for (const key of ["emailRedirectPath", "currentUser", "AUTH_TOKEN", "lastDealershipId", "theme", "sidebar"]) storage.setItem(key, "x");
    clearPersonalStorage();
    expect(storage.keys()).toEqual(["sidebar", "theme"]);
  });
});

describe("the path to open after login (part 1 §2.1)", () => {
  it("answers the stored path once and removes it", () => {
    storage.setItem("emailRedirectPath", "/leads/detail/abc");
    expect(takeRedirectPath()).toBe("/leads/detail/abc");
    expect(takeRedirectPath()).toBeNull();
  });

  it("ignores anything that is not a path inside the app", () => {
    storage.setItem("emailRedirectPath", "https://evil.example.com/");
    expect(takeRedirectPath()).toBeNull();
    storage.setItem("emailRedirectPath", "//evil.example.com/");
    expect(takeRedirectPath()).toBeNull();
  });
});
