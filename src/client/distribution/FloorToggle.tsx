import { useAuth } from "../auth/auth-provider";
import { useCurrentDealership, useRole } from "../dealerships/dealership-context";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useAvailability, useSetOnFloor } from "./api";

/**
 * The header's on-the-floor switch for a sales rep (decision 201): only reps on the floor are given new leads. A
 * toggle button (aria-pressed), so a screen reader says whether it is on and Space or Enter flips it.
 */
export function FloorToggle() {
  const { role } = useRole();
  const { dealership } = useCurrentDealership();
  if (role !== "sales" || !dealership) return null;
  return <FloorButton dealershipId={dealership.id} />;
}

function FloorButton({ dealershipId }: { dealershipId: string }) {
  const { user } = useAuth();
  const list = useAvailability(dealershipId);
  const set = useSetOnFloor(dealershipId);
  const me = list.data?.find((rep) => rep.userId === user?.id);
  if (!me) return null;
  const onFloor = set.isPending && set.variables !== undefined ? set.variables : me.onFloor;
  const flip = () =>
    set.mutate(!onFloor, {
      onSuccess: (now) => toast({ title: now.onFloor ? "You are on the floor: new leads can come to you" : "You are off the floor: no new leads come to you", variant: "success" }),
      onError: (error) => toast({ title: "Your floor status did not change", description: serverMessage(error, "Try again."), variant: "destructive" }),
    });
  return (
    <button
      type="button"
      aria-pressed={onFloor}
      onClick={flip}
      disabled={set.isPending}
      data-testid="floor-toggle"
      title={onFloor ? "On the floor: new leads can be given to you" : "Off the floor: no new leads are given to you"}
      className={cn(
        "flex h-9 min-w-9 items-center justify-center gap-2 rounded-full border px-3 max-sm:px-0 text-sm font-medium outline-none transition focus-visible:ring-[3px] focus-visible:ring-ring/30 disabled:opacity-70",
        onFloor ? "border-success/20 bg-success/10 text-success" : "bg-card text-muted-foreground hover:text-foreground",
      )}
    >
      <span aria-hidden="true" className={cn("size-2.5 rounded-full", onFloor ? "bg-success" : "bg-muted-foreground/50")} />
      {/* The name stays the same; whether it is on is aria-pressed (and the dot and colour). A phone's header has room
          for the dot only. */}
      <span className="sr-only sm:not-sr-only">On the floor</span>
    </button>
  );
}
