import { ArrowRight, Inbox, Phone, Plus } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { CLAIMED_LABEL_MS, RECENT_LEADS_SHOWN } from "../../shared/constants";
import { EmptyState } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { useRecentLeads } from "../leads/api";
import { ClaimButton, ContactLines, CustomerCell, LeadList, LeadListSkeleton, LeadStatusBadge, TimeAgo, type LeadColumn } from "../leads/components";
import { useClaimAction } from "../leads/use-lead-actions";
import type { DashboardSectionProps } from "./sections";
import { phoneHref } from "../../shared/phone-text";
import { useDeferredRead } from "../lib/use-deferred-read";

// Recent Leads (spec part 1 §2.3): the first 5 leads the user may see, newest first, with Claim on new leads and
// Contact on the others; View All goes to /leads/new; "No leads yet" with "Create First Lead" when there are none.

const COLUMNS: LeadColumn[] = [
  { header: "Customer", cell: (lead) => <CustomerCell lead={lead} showDescription={false} /> },
  { header: "Contact", cell: (lead) => <ContactLines lead={lead} compact /> },
  { header: "Status", cell: (lead) => <LeadStatusBadge status={lead.status} /> },
  { header: "Created", cell: (lead) => <TimeAgo value={lead.createdAt} /> },
];

export function RecentLeads({ dealership }: DashboardSectionProps) {
  const recent = useDeferredRead(useRecentLeads(dealership.id, RECENT_LEADS_SHOWN));
  const claimLead = useClaimAction(dealership.id, "short");
  // A just-claimed row keeps its button for the "Claimed!" moment before it turns into Contact.
  const [justClaimed, setJustClaimed] = useState<ReadonlySet<string>>(new Set());
  const claim = async (leadId: string) => {
    const ok = await claimLead(leadId);
    if (ok) {
      setJustClaimed((prev) => new Set(prev).add(leadId));
      setTimeout(() => setJustClaimed((prev) => new Set([...prev].filter((id) => id !== leadId))), CLAIMED_LABEL_MS);
    }
    return ok;
  };
  const leads = (recent.data ?? []).slice(0, RECENT_LEADS_SHOWN);

  return (
    <Card className="h-full overflow-hidden" data-testid="recent-leads">
      <CardHeader className="flex-row items-start justify-between gap-3 space-y-0">
        <div>
          <CardTitle>Recent Leads</CardTitle>
          <CardDescription>The newest enquiries</CardDescription>
        </div>
        <Button asChild variant="ghost" size="sm" className="-mr-2 text-primary">
          <Link to="/leads/new">
            View All
            <ArrowRight />
          </Link>
        </Button>
      </CardHeader>
      <CardContent className="px-0 pb-0 max-md:px-4 max-md:pb-4">
        {recent.isPending ? (
          <LeadListSkeleton />
        ) : recent.isError ? (
          <p className="px-6 py-8 text-center text-sm text-muted-foreground">Recent leads could not be loaded.</p>
        ) : leads.length === 0 ? (
          <EmptyState
            className="py-10"
            icon={<Inbox />}
            title="No leads yet"
            action={
              <Button asChild>
                <Link to="/leads/create">
                  <Plus />
                  Create First Lead
                </Link>
              </Button>
            }
          >
            New customer enquiries will show up here.
          </EmptyState>
        ) : (
          <LeadList
            label="Recent leads"
            leads={leads}
            columns={COLUMNS}
            actions={(lead) =>
              lead.status === "new" || justClaimed.has(lead.id) ? (
                <ClaimButton onClaim={() => claim(lead.id)} />
              ) : (
                <Button asChild variant="outline" size="sm">
                  <a href={lead.phone ? (phoneHref(lead.phone) ?? "") : lead.email ? `mailto:${lead.email}` : `/leads/detail/${lead.id}`}>
                    <Phone />
                    Contact
                  </a>
                </Button>
              )
            }
          />
        )}
      </CardContent>
    </Card>
  );
}
