import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { closeOpenDialog, openDialog } from "../components/ui/open-dialog";
import { useRole } from "../dealerships/dealership-context";
import { useRouteExists } from "../lib/known-routes";
import { toast } from "../lib/toast";
import { SHORTCUT_TOAST_MS } from "../realtime/constants";
import { mayOpen, shortcutFor } from "./shortcuts";

// The shell's keyboard shortcuts (part 2 §2). The help dialog's code downloads when '?' is first pressed.

const ShortcutsHelpDialog = lazy(() => import("./ShortcutsHelpDialog").then((m) => ({ default: m.ShortcutsHelpDialog })));

/** Open dialogs and menus keep their keys: a letter there must not move the page behind them. */
const OWNS_KEYS = "[role='dialog'], [role='alertdialog'], [role='menu'], [role='listbox']";

function announce(description: string): void {
  toast({ title: "Keyboard Shortcut Used", description, duration: SHORTCUT_TOAST_MS });
}

export function KeyboardShortcuts() {
  const navigate = useNavigate();
  const { role } = useRole();
  const routeExists = useRouteExists();
  const [helpOpen, setHelpOpenState] = useState(false);
  // Set from the '?' press until the help closes, including while its code downloads (no dialog on screen yet).
  const helpWanted = useRef(false);
  const setHelpOpen = useCallback((open: boolean) => {
    helpWanted.current = open;
    setHelpOpenState(open);
  }, []);
  // The listener is added once; it reads the latest role and routes from here.
  const latest = useRef({ role, routeExists, navigate });
  useEffect(() => {
    latest.current = { role, routeExists, navigate };
  });

  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      // Escape before the help's code arrived takes the '?' back (even when the toast's own Escape handled the key).
      if (event.key === "Escape" && helpWanted.current && !openDialog()) setHelpOpen(false);
      if (event.defaultPrevented) return;
      const action = shortcutFor(event, event.target);
      if (!action) return;
      const { role, routeExists, navigate } = latest.current;
      if (action.kind === "escape") {
        // A dialog closes itself on Escape when focus is inside it; this closes one whose focus has wandered off.
        const dialog = openDialog();
        if (dialog && !dialog.contains(document.activeElement) && closeOpenDialog()) event.preventDefault();
        return;
      }
      if (event.target instanceof Element && event.target.closest(OWNS_KEYS)) return;
      if (openDialog()) return;
      if (action.kind === "help") {
        event.preventDefault();
        if (helpWanted.current) return; // pressed again while it downloads: one dialog, one toast
        setHelpOpen(true);
        announce("Showing keyboard shortcuts");
      } else if (action.kind === "search") {
        const search = document.querySelector<HTMLInputElement>("main input[type='search']");
        if (!search) return;
        event.preventDefault();
        search.focus();
        announce("Search focused");
      } else if (mayOpen(action.shortcut, role, routeExists)) {
        event.preventDefault();
        navigate(action.shortcut.path);
        announce(`Going to ${action.shortcut.label}`);
      }
    }
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [setHelpOpen]);

  if (!helpOpen) return null;
  return (
    <Suspense fallback={null}>
      <ShortcutsHelpDialog open={helpOpen} onOpenChange={setHelpOpen} />
    </Suspense>
  );
}
