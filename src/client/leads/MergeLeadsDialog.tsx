import { GitMerge } from "lucide-react";
import { useState } from "react";
import { DEFAULT_TIMEZONE, LEAD_STATUS_LABELS, LEAD_STATUSES } from "../../shared/constants";
import { onDealershipClock } from "../../shared/dealership-clock";
import { LEAD_SOURCE_LABELS } from "../../shared/lead-source";
import { fullName } from "../../shared/format";
import type { Lead } from "../../shared/schemas/lead";
import type { MergeChoices, PossibleDuplicate } from "../../shared/schemas/lead-duplicates";
import { Button } from "../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { Segmented } from "../components/ui/segmented";
import { Spinner } from "../components/ui/spinner";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useCurrentDealership } from "../dealerships/dealership-context";
import { useMergeLeads } from "./duplicates-api";
import { formatPhone } from "../../shared/phone";

// The merge dialog (issue 14; decision 138): for each field, this lead's value or the other's (the description may
// keep both). This lead stays; the other's appointments and test drives move here and the other lead goes.

type Side = "kept" | "merged";
type Row = { field: keyof MergeChoices; label: string; kept: string; merged: string };

const DEFAULTS: MergeChoices = { firstName: "kept", lastName: "kept", email: "kept", phone: "kept", description: "both", claimedBy: "kept" };

/** The status further along is chosen at first (decision 207): merging from the newer lead's page keeps "Contacted". */
const furtherSide = (lead: Lead, other: PossibleDuplicate): Side => (LEAD_STATUSES.indexOf(other.status) > LEAD_STATUSES.indexOf(lead.status) ? "merged" : "kept");

/** When and how a lead arrived, on the dealership's clock: "Nov 27, 2026, 4:24 PM EST · ADF (AutoTrader)". */
function arrival(lead: Pick<Lead, "createdAt" | "source" | "sourceProvider">, timezone: string): string {
  const source = LEAD_SOURCE_LABELS[lead.source] ?? lead.source;
  return `${onDealershipClock(lead.createdAt, timezone)} · ${source}${lead.sourceProvider ? ` (${lead.sourceProvider})` : ""}`;
}
const none = "—";

function rowsOf(lead: Lead, other: PossibleDuplicate): Row[] {
  return [
    { field: "firstName", label: "First name", kept: lead.firstName, merged: other.firstName },
    { field: "lastName", label: "Last name", kept: lead.lastName, merged: other.lastName },
    { field: "email", label: "Email", kept: lead.email ?? none, merged: other.email ?? none },
    { field: "phone", label: "Phone", kept: lead.phone ? formatPhone(lead.phone) : none, merged: other.phone ? formatPhone(other.phone) : none },
    { field: "description", label: "Description", kept: lead.description ?? none, merged: other.description ?? none },
    { field: "status", label: "Status", kept: LEAD_STATUS_LABELS[lead.status], merged: LEAD_STATUS_LABELS[other.status] },
    { field: "claimedBy", label: "Claimed by", kept: lead.claimedByName ?? "Not claimed", merged: other.claimedByName ?? "Not claimed" },
  ];
}

export function MergeLeadsDialog({
  lead,
  other,
  dealershipId,
  open,
  onOpenChange,
}: {
  lead: Lead;
  other: PossibleDuplicate;
  dealershipId: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [choices, setChoices] = useState<MergeChoices>(() => ({ ...DEFAULTS, status: furtherSide(lead, other) }));
  const otherIsOlder = new Date(other.createdAt).getTime() < new Date(lead.createdAt).getTime();
  const timezone = useCurrentDealership().dealership?.timezone ?? DEFAULT_TIMEZONE;
  const merge = useMergeLeads(dealershipId, lead.id);

  async function submit() {
    try {
      const result = await merge.mutateAsync({ mergeLeadId: other.id, choices });
      const moved = [
        result.movedAppointments ? `${result.movedAppointments} appointment${result.movedAppointments === 1 ? "" : "s"}` : null,
        result.movedTestDrives ? `${result.movedTestDrives} test drive${result.movedTestDrives === 1 ? "" : "s"}` : null,
      ].filter(Boolean);
      toast({
        title: "Leads merged",
        description: moved.length ? `${moved.join(" and ")} moved to this lead.` : "The other lead was folded into this one.",
        variant: "success",
      });
      onOpenChange(false);
    } catch (error) {
      toast({ title: "Merge failed", description: serverMessage(error, "The leads could not be merged."), variant: "destructive" });
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-2xl" data-testid="merge-dialog">
        <DialogHeader>
          <DialogTitle>Merge leads</DialogTitle>
          <DialogDescription>
            Choose which value to keep for each field. This lead stays; {fullName(other)}&apos;s appointments and test drives move here, and that
            lead is removed. The merge is recorded.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-1 rounded-md border bg-muted/40 p-3 text-sm" data-testid="merge-arrival">
          <p className="font-medium">Arrived</p>
          <div className="grid gap-1 sm:grid-cols-2 sm:gap-3">
            <p className="min-w-0 break-words">
              <span className="text-xs text-muted-foreground">This lead: </span>
              {arrival(lead, timezone)}
            </p>
            <p className="min-w-0 break-words">
              <span className="text-xs text-muted-foreground">Other lead: </span>
              {arrival(other, timezone)}
            </p>
          </div>
          <p className="text-muted-foreground">
            {otherIsOlder ? "The other lead is older" : "This lead is older"}: the merged lead keeps its arrival time and source.
          </p>
        </div>
        <div className="grid gap-4" role="group" aria-label="Fields to keep">
          {rowsOf(lead, other).map((row) => {
            const options: Array<{ value: Side | "both"; label: string }> = [
              { value: "kept", label: "This lead" },
              { value: "merged", label: "Other lead" },
              ...(row.field === "description" ? [{ value: "both" as const, label: "Both" }] : []),
            ];
            return (
              <div key={row.field} className="grid gap-2 border-b pb-4 last:border-b-0 last:pb-0" data-testid={`merge-field-${row.field}`}>
                <p className="text-sm font-medium">{row.label}</p>
                <div className="grid gap-1 text-sm sm:grid-cols-2 sm:gap-3">
                  <p className="min-w-0 break-words">
                    <span className="text-xs text-muted-foreground">This lead: </span>
                    <span className="line-clamp-3 whitespace-pre-wrap">{row.kept}</span>
                  </p>
                  <p className="min-w-0 break-words">
                    <span className="text-xs text-muted-foreground">Other lead: </span>
                    <span className="line-clamp-3 whitespace-pre-wrap">{row.merged}</span>
                  </p>
                </div>
                <Segmented
                  label={`${row.label}: keep`}
                  value={choices[row.field] ?? "kept"}
                  options={options}
                  onChange={(value) => setChoices((c) => ({ ...c, [row.field]: value }))}
                />
              </div>
            );
          })}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} disabled={merge.isPending}>
            {merge.isPending ? <Spinner /> : <GitMerge />}
            {merge.isPending ? "Merging..." : "Merge leads"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
