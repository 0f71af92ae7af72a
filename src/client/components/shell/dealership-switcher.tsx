import { Building2, ChevronsUpDown } from "lucide-react";
import { lazy, Suspense } from "react";
import { useCurrentDealership } from "../../dealerships/dealership-context";
import { useFirstScreenDrawn } from "../../lib/first-screen";
import { cn } from "../../lib/utils";
import { Spinner } from "../ui/spinner";

// The header's dealership switcher. Its face is drawn with the first screen; the menu (radix) downloads right after,
// and until then the button is shown disabled (issue 12, decision 070).

const DealershipSwitcherMenu = lazy(() => import("./dealership-switcher-menu").then((m) => ({ default: m.DealershipSwitcherMenu })));

/** Header dealership switcher: only when the user belongs to more than one dealership (part 1 §2.9). */
export function DealershipSwitcher({ className }: { className?: string }) {
  const { dealerships, dealership, isSwitching } = useCurrentDealership();
  const drawn = useFirstScreenDrawn();
  if (dealerships.length <= 1 || !dealership) return null;
  const waiting = (
    <button type="button" disabled className={switcherTriggerClass(className)}>
      <SwitcherFace name={dealership.name} isSwitching={isSwitching} />
    </button>
  );
  if (!drawn) return waiting;
  return (
    <Suspense fallback={waiting}>
      <DealershipSwitcherMenu className={className} />
    </Suspense>
  );
}

export function switcherTriggerClass(className?: string): string {
  return cn(
    "flex h-10 min-w-0 items-center gap-2 rounded-lg border bg-card px-3 text-left text-sm font-medium shadow-xs outline-none transition hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/30",
    className,
  );
}

export function SwitcherFace({ name, isSwitching }: { name: string; isSwitching: boolean }) {
  return (
    <>
      {/* Named "Switch dealership: <the one shown>", containing what it shows (WCAG 2.5.3): no aria-label. */}
      <span className="sr-only">Switch dealership: </span>
      {isSwitching ? <Spinner className="text-primary" /> : <Building2 className="size-4 shrink-0 text-primary" aria-hidden="true" />}
      <span className="truncate">{name}</span>
      <ChevronsUpDown className="ml-auto size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
    </>
  );
}
