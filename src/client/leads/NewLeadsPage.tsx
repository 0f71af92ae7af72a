import { BellRing, Eye, Inbox, Plus } from "lucide-react";
import { Link } from "react-router";
import { EmptyState, PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { useCan, useCurrentDealership } from "../dealerships/dealership-context";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useLeadList, useSendReminder } from "./api";
import { ClaimButton, ContactLines, CustomerCell, LeadList, LeadListSkeleton, LoadMoreLeads, LeadStatusBadge, TimeAgo, type LeadColumn } from "./components";
import { LeadsCsvActions } from "../intake/LeadsCsvActions";
import { LeadRowMenu } from "./lead-row-menu";
import { useClaimAction, useDeleteAction } from "./use-lead-actions";

// New Leads (spec part 1 §2.4): the unclaimed pool, newest first. Claim removes the row at once (restored if the call
// fails); a row being deleted is faded. Send Reminder for front desk and management while new leads exist.

const COLUMNS: LeadColumn[] = [
  { header: "Customer", className: "min-w-44", cell: (lead) => <CustomerCell lead={lead} /> },
  { header: "Contact Information", className: "min-w-56", cell: (lead) => <ContactLines lead={lead} /> },
  { header: "Status", cell: (lead) => <LeadStatusBadge status={lead.status} /> },
  { header: "Created", cell: (lead) => <TimeAgo value={lead.createdAt} /> },
];

export function NewLeadsPage() {
  const { dealership } = useCurrentDealership();
  const dealershipId = dealership?.id ?? "";
  const list = useLeadList(dealership?.id, "new");
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
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title="New Leads"
        description="Unclaimed customer enquiries. Claim one to add it to your clients."
        actions={
          <>
            <LeadsCsvActions dealershipId={dealershipId} filters={{ type: "new" }} />
            {canRemind && hasLeads && (
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
      <Card className="overflow-hidden max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        {list.isPending ? (
          <LeadListSkeleton />
        ) : list.isError && !hasLeads ? (
          <EmptyState title="New leads could not be loaded" action={<Button onClick={() => void list.refetch()}>Try again</Button>}>
            Check your connection and try again.
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
