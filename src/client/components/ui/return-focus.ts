import { useRef } from "react";

/**
 * Where focus goes when a dialog closes: back to the control that opened it (WCAG 2.4.3; issue 12). Radix returns it
 * to a <Trigger> only, and most of our dialogs are opened from state (a row's Cancel, a menu's Delete), which left
 * focus on <body>. A dialog opened from a menu item returns to the menu's button, the item being gone.
 * Spread the answer on the radix Content: it notes the opener as the dialog opens and focuses it as it closes.
 */
export function useReturnFocus(handlers: { onOpenAutoFocus?: (event: Event) => void; onCloseAutoFocus?: (event: Event) => void }) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus(event: Event) {
      const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      const menu = active?.closest<HTMLElement>("[role='menu']");
      opener.current = menu?.id ? document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`) : active;
      handlers.onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus(event: Event) {
      handlers.onCloseAutoFocus?.(event);
      const target = opener.current;
      if (event.defaultPrevented || !target || !target.isConnected || target === document.body) return;
      event.preventDefault();
      target.focus();
    },
  };
}
