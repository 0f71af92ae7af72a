import { Copy, GitMerge, X } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { LEAD_STATUS_LABELS } from "../../shared/constants";
import { fullName } from "../../shared/format";
import type { Lead } from "../../shared/schemas/lead";
import type { PossibleDuplicate } from "../../shared/schemas/lead-duplicates";
import { Button } from "../components/ui/button";
import { useCan } from "../dealerships/dealership-context";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useDismissDuplicate, useDuplicates } from "./duplicates-api";
import { MergeLeadsDialog } from "./MergeLeadsDialog";

// "Possible duplicate" on the lead's page (issue 14; decisions 137-139): each open lead of the same customer, with a
// link to it; front desk and management can merge the two or say they are not the same person.

const matchedWords = (d: PossibleDuplicate) => d.matchedOn.map((m) => (m === "email" ? "e-mail" : "phone")).join(" and ");

export function DuplicateBanner({ lead, dealershipId }: { lead: Lead; dealershipId: string }) {
  const query = useDuplicates(lead.id);
  const canMerge = useCan("mergeLeads");
  const dismiss = useDismissDuplicate(lead.id);
  const [merging, setMerging] = useState<PossibleDuplicate | null>(null);
  const duplicates = query.data ?? [];
  if (duplicates.length === 0) return null;

  function notDuplicate(other: PossibleDuplicate) {
    dismiss.mutate(other.id, {
      onSuccess: () => toast({ title: "Marked as not a duplicate", description: `${fullName(other)} stays a separate lead.`, variant: "success" }),
      onError: (error) => toast({ title: "Could not dismiss", description: serverMessage(error, "Please try again."), variant: "destructive" }),
    });
  }

  return (
    <section aria-labelledby="duplicate-heading" className="mb-6 rounded-xl border border-warning/40 bg-warning/10 p-4" data-testid="duplicate-banner">
      <h2 id="duplicate-heading" className="flex items-center gap-2 text-sm font-semibold">
        <Copy className="size-4 shrink-0" aria-hidden="true" />
        {duplicates.length === 1 ? "Possible duplicate" : `${duplicates.length} possible duplicates`}
      </h2>
      <ul className="mt-3 grid gap-3">
        {duplicates.map((d) => (
          <li key={d.id} className="flex flex-col gap-3 rounded-lg bg-card p-3 shadow-xs sm:flex-row sm:items-center sm:justify-between" data-testid="duplicate-item">
            <p className="min-w-0 text-sm">
              <Link to={`/leads/detail/${d.id}`} className="font-medium text-primary hover:underline">
                {fullName(d)}
              </Link>
              <span className="text-muted-foreground">
                {" "}
                has the same {matchedWords(d)} · {LEAD_STATUS_LABELS[d.status]}
                {d.claimedByName ? ` · ${d.claimedByName}` : ""} · created {new Date(d.createdAt).toLocaleDateString()}
              </span>
            </p>
            {canMerge && (
              <div className="flex shrink-0 gap-2">
                <Button size="sm" onClick={() => setMerging(d)}>
                  <GitMerge />
                  Merge
                </Button>
                <Button size="sm" variant="outline" onClick={() => notDuplicate(d)} disabled={dismiss.isPending}>
                  <X />
                  Not a duplicate
                </Button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {merging && (
        <MergeLeadsDialog lead={lead} other={merging} dealershipId={dealershipId} open onOpenChange={(open) => !open && setMerging(null)} />
      )}
    </section>
  );
}
