import { ArchiveRestore, GitMerge, Loader2, Trash2 } from "lucide-react";
import { Link } from "react-router";
import { fullName } from "../../shared/format";
import type { DeletedLead } from "../../shared/schemas/deleted-leads";
import { AccessDenied } from "../components/access-denied";
import { EmptyState, PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { useCan, useCurrentDealership, useRole } from "../dealerships/dealership-context";
import { ApiError } from "../lib/api";
import { toast } from "../lib/toast";
import { ContactLines, LeadStatusBadge, TimeAgo } from "./components";
import { useDeletedLeads, useRestoreLead } from "./deleted-api";

// Recently Deleted (issue 30, decision 214): the leads deleted or merged away in the last 30 days, for management, each
// with Restore. A restore brings the lead back with its appointments, test drives, notes, tasks and timeline.

const DAY = { day: "numeric", month: "short", year: "numeric" } as const;

export function RecentlyDeletedPage() {
  const { dealership, isLoading } = useCurrentDealership();
  const { isLoading: roleLoading } = useRole();
  const allowed = useCan("restoreDeletedLeads");
  const list = useDeletedLeads(dealership?.id, allowed);

  if (isLoading || roleLoading) return <ListSkeleton />;
  if (!dealership || !allowed) {
    return <AccessDenied>Only management can see and restore deleted leads.</AccessDenied>;
  }

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Recently Deleted"
        description="Leads deleted or merged away in the last 30 days. Restore brings a lead back with its appointments, test drives, notes, tasks and history."
      />
      {list.isPending ? (
        <ListSkeleton bare />
      ) : list.isError ? (
        <Card>
          <EmptyState title="Deleted leads could not be loaded" action={<Button onClick={() => void list.refetch()}>Try again</Button>}>
            Check your connection and try again.
          </EmptyState>
        </Card>
      ) : list.data.length === 0 ? (
        <Card>
          <EmptyState icon={<Trash2 />} title="Nothing deleted in the last 30 days">
            A lead someone deletes or merges away waits here for 30 days, so that it can be restored.
          </EmptyState>
        </Card>
      ) : (
        <ul className="grid gap-3" aria-label="Recently deleted leads">
          {list.data.map((lead) => (
            <DeletedLeadRow key={lead.id} lead={lead} dealershipId={dealership.id} />
          ))}
        </ul>
      )}
    </div>
  );
}

function DeletedLeadRow({ lead, dealershipId }: { lead: DeletedLead; dealershipId: string }) {
  const restore = useRestoreLead(dealershipId);
  const name = fullName(lead);
  const by = lead.deletedBy ? fullName(lead.deletedBy) : "someone no longer here";

  const run = async () => {
    try {
      await restore.mutateAsync(lead.id);
      toast({ title: "Lead Restored", description: `${name} is back with its appointments, test drives, notes and history.`, variant: "success" });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return;
      toast({ title: "Restore Failed", description: error instanceof Error ? error.message : "Failed to restore the lead. Please try again.", variant: "destructive" });
    }
  };

  return (
    <li>
      <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <span className="break-words font-semibold">{name}</span>
            <LeadStatusBadge status={lead.status} />
          </div>
          <ContactLines lead={lead} />
          <p className="text-sm text-muted-foreground">
            {lead.mergedInto ? (
              <>
                <GitMerge className="mr-1 inline size-3.5 align-[-2px]" aria-hidden="true" />
                Merged into{" "}
                <Link to={`/leads/detail/${lead.mergedInto.id}`} className="break-words text-foreground underline-offset-2 hover:underline">
                  {fullName(lead.mergedInto)}
                </Link>{" "}
                by {by}, <TimeAgo value={lead.deletedAt} />
              </>
            ) : (
              <>
                Deleted by {by}, <TimeAgo value={lead.deletedAt} />
              </>
            )}
          </p>
          <p className="text-xs text-muted-foreground">Can be restored until {new Date(lead.restorableUntil).toLocaleDateString(undefined, DAY)}</p>
        </div>
        <Button size="sm" className="shrink-0 self-start" onClick={() => void run()} disabled={restore.isPending} aria-label={`Restore ${name}`}>
          {restore.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <ArchiveRestore aria-hidden="true" />}
          {restore.isPending ? "Restoring..." : "Restore"}
        </Button>
      </Card>
    </li>
  );
}

function ListSkeleton({ bare = false }: { bare?: boolean }) {
  return (
    <div className="mx-auto grid max-w-5xl gap-3" role="status" aria-busy="true" aria-label="Loading deleted leads">
      {!bare && <Skeleton className="mb-4 h-8 w-56" />}
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-28 rounded-xl" />
      ))}
    </div>
  );
}
