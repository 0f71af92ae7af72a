import { describe, expect, it } from "vitest";
import { isTypingTarget, mayOpen, PAGE_SHORTCUTS, shortcutFor } from "./shortcuts";

// Keyboard shortcuts (part 2 §2): which key does what, and when a key is left alone.

const press = (key: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean; metaKey: boolean; shiftKey: boolean; repeat: boolean }> = {}) => ({
  key,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  shiftKey: key === "?",
  ...mods,
});
/** A stand-in for an element: `closest` answers whether it sits inside a matching element. */
const element = (inside: string | null, editable = false) =>
  ({ isContentEditable: editable, closest: (selector: string) => (inside && selector.includes(inside) ? {} : null) }) as unknown as EventTarget;
const page = element(null);

describe("shortcut keys", () => {
  it("m, l, c, t and n open My Clients, New Leads, Calendar, Test Drives and New Appointment", () => {
    const go = (key: string) => {
      const action = shortcutFor(press(key), page);
      return action?.kind === "go" ? action.shortcut.path : null;
    };
    expect(["m", "l", "c", "t", "n"].map(go)).toEqual(["/leads/my", "/leads/new", "/calendar", "/test-drives", "/appointments/new"]);
  });

  it("/ focuses the search, ? opens the help, Escape closes a dialog", () => {
    expect(shortcutFor(press("/"), page)).toEqual({ kind: "search" });
    expect(shortcutFor(press("?"), page)).toEqual({ kind: "help" });
    expect(shortcutFor(press("Escape"), page)).toEqual({ kind: "escape" });
  });

  it("are ignored while typing in an input, a text area, a select or anything editable", () => {
    for (const inside of ["input", "textarea", "select", "[role='combobox']"]) {
      expect(shortcutFor(press("m"), element(inside)), inside).toBeNull();
      expect(shortcutFor(press("?"), element(inside)), inside).toBeNull();
      expect(shortcutFor(press("/"), element(inside)), inside).toBeNull();
    }
    expect(shortcutFor(press("m"), element(null, true))).toBeNull();
    expect(isTypingTarget(element("[contenteditable='true']"))).toBe(true);
  });

  it("are ignored with Ctrl, Alt, Meta, or Shift on a letter (Ctrl+C copies, Shift+M types M)", () => {
    for (const mod of ["ctrlKey", "altKey", "metaKey", "shiftKey"] as const) {
      expect(shortcutFor(press("c", { [mod]: true }), page), mod).toBeNull();
    }
    expect(shortcutFor(press("?", { ctrlKey: true }), page)).toBeNull();
    expect(shortcutFor(press("/", { metaKey: true }), page)).toBeNull();
  });

  it("do not repeat while a key is held down, and other keys do nothing", () => {
    expect(shortcutFor(press("m", { repeat: true }), page)).toBeNull();
    expect(shortcutFor(press("x"), page)).toBeNull();
    expect(shortcutFor(press("Enter"), page)).toBeNull();
  });
});

describe("who may use a page shortcut", () => {
  const all = () => true;
  it("only where the page is routed", () => {
    const calendar = PAGE_SHORTCUTS.find((s) => s.key === "c")!;
    expect(mayOpen(calendar, "sales", all)).toBe(true);
    expect(mayOpen(calendar, "sales", (p) => p !== "/calendar")).toBe(false);
  });

  it("every role may open every page the shortcuts lead to (they are all in everyone's navigation)", () => {
    for (const role of ["sales", "frontDesk", "management"] as const) {
      for (const s of PAGE_SHORTCUTS) expect(mayOpen(s, role, all), `${role} ${s.key}`).toBe(true);
    }
  });
});
