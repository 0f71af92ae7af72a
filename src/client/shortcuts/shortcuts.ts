import type { DealershipRole } from "../../shared/constants";
import { pageOpensAfterSwitch } from "../components/shell/nav";

// Keyboard shortcuts (part 2 §2): single keys, ignored while typing and when Ctrl, Alt or Meta (or Shift, except for
// '?', which needs it) is held. Pure, so the rules are tested without a browser.

export interface PageShortcut {
  key: string;
  path: string;
  label: string;
}

export const PAGE_SHORTCUTS: readonly PageShortcut[] = [
  { key: "m", path: "/leads/my", label: "My Clients" },
  { key: "l", path: "/leads/new", label: "New Leads" },
  { key: "c", path: "/calendar", label: "Calendar" },
  { key: "t", path: "/test-drives", label: "Test Drives" },
  { key: "n", path: "/appointments/new", label: "New Appointment" },
];

/** Every shortcut as the help dialog lists it. */
export const SHORTCUT_HELP: ReadonlyArray<{ keys: string; does: string }> = [
  ...PAGE_SHORTCUTS.map((s) => ({ keys: s.key.toUpperCase(), does: `Go to ${s.label}` })),
  { keys: "/", does: "Focus the search box" },
  { keys: "Esc", does: "Close the open dialog" },
  { keys: "?", does: "Show these shortcuts" },
];

export type ShortcutAction =
  | { kind: "go"; shortcut: PageShortcut }
  | { kind: "search" }
  | { kind: "escape" }
  | { kind: "help" };

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  repeat?: boolean;
}

/** True while the person is typing: in a text field, a select, or anything editable. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== "function") return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return Boolean(element.closest("input, textarea, select, [contenteditable=''], [contenteditable='true'], [role='combobox'], [role='textbox']"));
}

/** The action a key press asks for, or null when it is not a shortcut here. */
export function shortcutFor(event: KeyLike, target: EventTarget | null): ShortcutAction | null {
  if (event.ctrlKey || event.altKey || event.metaKey || event.repeat) return null;
  if (event.key === "Escape") return { kind: "escape" };
  if (isTypingTarget(target)) return null;
  if (event.key === "?") return { kind: "help" };
  if (event.shiftKey) return null;
  if (event.key === "/") return { kind: "search" };
  const shortcut = PAGE_SHORTCUTS.find((s) => s.key === event.key);
  return shortcut ? { kind: "go", shortcut } : null;
}

/** A page shortcut works only where its page exists and the role may open it (the navigation's rule). */
export function mayOpen(shortcut: PageShortcut, role: DealershipRole | null, routeExists: (path: string) => boolean): boolean {
  return routeExists(shortcut.path) && pageOpensAfterSwitch(shortcut.path, role);
}
