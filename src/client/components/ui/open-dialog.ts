// Escape closes the open dialog (part 2 §2). Radix gives Escape to its newest layer, and every toast is one: a toast
// that comes up with or over a dialog (the help's own "Keyboard Shortcut Used", a failed save's error) would take the
// first Escape and leave the dialog open. The toast and the shortcuts close the dialog through its own close control
// instead, so whatever the dialog does on closing (focus return, a guard on a disabled Cancel) still happens.

/** Marks the control that closes its dialog (the X, an alert's Cancel). */
export const CLOSES_DIALOG = { "data-closes-dialog": "" } as const;

const OPEN_DIALOG = "[role='dialog'][data-state='open'], [role='alertdialog'][data-state='open']";
const OPEN_POPUP = "[role='menu'][data-state='open'], [role='listbox'][data-state='open']";

/** The open dialog on top (a dialog opened from another comes later in the document). */
export function openDialog(): HTMLElement | null {
  const dialogs = document.querySelectorAll<HTMLElement>(OPEN_DIALOG);
  return dialogs[dialogs.length - 1] ?? null;
}

/** Closes the dialog on top as its close control does; false when there is none, or a menu or list on it is open. */
export function closeOpenDialog(): boolean {
  const dialog = openDialog();
  if (!dialog || document.querySelector(OPEN_POPUP)) return false;
  const close = [...dialog.querySelectorAll<HTMLButtonElement>("[data-closes-dialog]")].find((button) => button.closest(OPEN_DIALOG) === dialog);
  if (!close) return false;
  close.click();
  return true;
}
