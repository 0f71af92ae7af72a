import { Bell } from "lucide-react";
import { forwardRef, type ComponentProps } from "react";
import { cn } from "../lib/utils";
import { badgeText, bellLabel } from "./format";

// The header bell's button as drawn (part 2 §2 Notifications): the icon and a red count, 99+ above 99. Its name says
// the unread count. Shared by the disabled stand-in drawn with the first screen and the real popover trigger.

export const BellFace = forwardRef<HTMLButtonElement, ComponentProps<"button"> & { count: number }>(function BellFace(
  { count, className, ...props },
  ref,
) {
  const badge = badgeText(count);
  return (
    <button
      ref={ref}
      type="button"
      aria-label={bellLabel(count)}
      data-testid="notification-bell"
      className={cn(
        "relative inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-foreground outline-none transition hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/30 disabled:opacity-70",
        className,
      )}
      {...props}
    >
      <Bell className="size-5" aria-hidden="true" />
      {badge && (
        <span
          data-testid="notification-badge"
          aria-hidden="true"
          className="absolute -right-0.5 -top-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-[11px] font-semibold leading-none text-destructive-foreground tabular-nums ring-2 ring-card"
        >
          {badge}
        </span>
      )}
    </button>
  );
});
