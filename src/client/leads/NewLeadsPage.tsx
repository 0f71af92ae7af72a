import { BellRing, Eye, Filter, Inbox, Plus } from "lucide-react";
import { Link } from "react-router";
import { LEAD_SOURCE_LABELS } from "../../shared/lead-source";
import { EmptyState, PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { useCan, useCurrentDealership } from "../dealerships/dealership-context";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useLeadList, useNewLeadsCount, useSendReminder } from "./api";
import { ClaimButton, ContactLines, CustomerCell, LeadList, LeadListSkeleton, LoadMoreLeads, LeadStatusBadge, TimeAgo, type LeadColumn } from "./components";
import { LeadsCsvActions } from "../intake/LeadsCsvActions";
import { LeadRowMenu } from "./lead-row-menu";
import { LeadSourceSelect, useSourceFilter } from "./LeadSourceFilter";
import { useClaimAction, useDeleteAction } from "./use-lead-actions";

// New Leads (spec part 1 §2.4): the unclaimed pool, newest first. Claim removes the row at once (restored if the call
// fails); a row being deleted is faded. Send Reminder for front desk and management while new leads exist. The Source
// filter (issue 14) is kept in the address (?source=).

const COLUMNS: LeadColumn[] = [
  { header: "Customer", className: "min-w-44", cell: (lead) => <CustomerCell lead={lead} /> },
  { header: "Contact Information", className: "min-w-56", cell: (lead) => <ContactLines lead={lead} /> },
  { header: "Status", cell: (lead) => <LeadStatusBadge status={lead.status} /> },
  { header: "Created", cell: (lead) => <TimeAgo value={lead.createdAt} /> },
];

export function NewLeadsPage() {
  const { dealership } = useCurrentDealership();
  const dealershipId = dealership?.id ?? "";
  const [source, setSource] = useSourceFilter();
  const list = useLeadList(dealership?.id, "new", { source });
  // The reminder is about the whole pool, whatever the filter shows (the sidebar badge's list, already loaded).
  const pool = useNewLeadsCount(dealership?.id);
  const canRemind = useCan("sendReminders");
  const reminder = useSendReminder(dealership?.id);
  const claim = useClaimAction(dealershipId, "detailed");
  const { deleting, remove } = useDeleteAction(dealershipId, "newLeads");

  function sendReminder() {
    reminder.mutate(undefined, {
      onSuccess: ({ message }) => toast({ title: "Reminder Sent", description: message, variant: "success" }),
      onError: (error) =>
        toast({ title: "Failed to Send Reminder", description: serverMessage(error, error.message || "Could not send reminder email"), variant: "destructive" }),
    });
  }

  const hasLeads = list.leads.length > 0;
  const poolHasLeads = source ? (pool?.count ?? 0) > 0 : hasLeads;
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title="New Leads"
        description="Unclaimed customer enquiries. Claim one to add it to your clients."
        actions={
          <>
            <LeadsCsvActions dealershipId={dealershipId} filters={{ type: "new", source }} />
            {canRemind && poolHasLeads && (
              <Button variant="outline" onClick={sendReminder} disabled={reminder.isPending}>
                <BellRing />
                {reminder.isPending ? "Sending..." : "Send Reminder"}
              </Button>
            )}
            <Button asChild>
              <Link to="/leads/create">
                <Plus />
                Create New Lead
              </Link>
            </Button>
          </>
        }
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row">
        <LeadSourceSelect value={source} onChange={setSource} />
      </div>
      <Card className="overflow-hidden max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        {list.isPending ? (
          <LeadListSkeleton />
        ) : list.isError && !hasLeads ? (
          <EmptyState title="New leads could not be loaded" action={<Button onClick={() => void list.refetch()}>Try again</Button>}>
            Check your connection and try again.
          </EmptyState>
        ) : !hasLeads && source ? (
          <EmptyState
            icon={<Filter />}
            title={`No new leads from ${LEAD_SOURCE_LABELS[source]}`}
            className="max-md:rounded-xl max-md:border max-md:bg-card"
            action={
              <Button variant="outline" size="sm" onClick={() => setSource("")}>
                Show all sources
              </Button>
            }
          >
            No unclaimed lead came in this way. Other sources may still have new leads.
          </EmptyState>
        ) : !hasLeads ? (
          <EmptyState icon={<Inbox />} title="No new leads available" className="max-md:rounded-xl max-md:border max-md:bg-card">
            All current leads have been claimed. New leads will appear here when they become available.
          </EmptyState>
        ) : (
          <>
            <LeadList
              label="New leads"
              leads={list.leads}
              columns={COLUMNS}
              fading={deleting}
              actions={(lead) => (
                <>
                  <Button asChild variant="outline" size="sm">
                    <Link to={`/leads/detail/${lead.id}`}>
                      <Eye />
                      <span className="max-lg:sr-only">View Details</span>
                    </Link>
                  </Button>
                  <ClaimButton onClaim={() => claim(lead.id)} />
                  <LeadRowMenu lead={lead} onDelete={() => remove(lead.id)} />
                </>
              )}
            />
            <LoadMoreLeads list={list} />
          </>
        )}
      </Card>
    </div>
  );
}
