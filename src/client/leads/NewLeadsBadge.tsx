import { useCurrentDealership } from "../dealerships/dealership-context";
import { useNewLeadsCount } from "./api";

// The New Leads count beside the sidebar item (part 1 §2.9). It reads the first page of the New Leads list (shared
// with that screen's cache): a full page with more behind it shows as "100+".
export function NewLeadsBadge() {
  const { dealership } = useCurrentDealership();
  const count = useNewLeadsCount(dealership?.id);
  if (!count || count.count === 0) return null;
  const text = count.more ? `${count.count}+` : String(count.count);
  return (
    <span
      data-testid="new-leads-badge"
      // Every lead nobody has claimed, whenever it came in (the dashboard's New Leads card counts today's), issue 12.
      aria-label={`${text} waiting to be claimed`}
      title="Leads nobody has claimed yet"
      className="ml-auto inline-flex min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-[11px] font-semibold leading-5 text-primary-foreground tabular-nums"
    >
      {text}
    </span>
  );
}
