import { CalendarPlus, Columns3, Eye, List, Search, Users } from "lucide-react";
import { useDeferredValue, useState } from "react";
import { Link } from "react-router";
import { LEAD_STATUS_LABELS, type LeadStatus } from "../../shared/constants";
import { LEAD_SOURCE_LABELS } from "../../shared/lead-source";
import { fullName } from "../../shared/format";
import { EmptyState, PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { Segmented } from "../components/ui/segmented";
import { SearchInput } from "../components/ui/search-input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { useCan, useCurrentDealership } from "../dealerships/dealership-context";
import { LeadsCsvActions } from "../intake/LeadsCsvActions";
import { useLeadList } from "./api";
import { ClientsBoard } from "./ClientsBoard";
import { ContactLines, CustomerCell, LeadList, LeadListSkeleton, LoadMoreLeads, LeadStatusBadge, TimeAgo, type LeadColumn } from "./components";
import { LeadRowMenu } from "./lead-row-menu";
import { LeadSourceSelect, useSourceFilter } from "./LeadSourceFilter";
import { useDeleteAction } from "./use-lead-actions";

// My Clients (spec part 1 §2.5), "All Clients" for front desk and management: the leads taken out of the pool (a sales
// user's own). Search (name, e-mail or phone), the status filter and the source filter (issue 14; kept in the address
// as ?source=) run on the server and combine with AND.

const ALL = "all";
/** part 1 §2.5 names "All Statuses" and "Claimed"; the other worked statuses (part 2 §4) follow. */
const FILTERS: Array<LeadStatus> = ["claimed", "contacted", "qualified", "inProgress", "closed", "lost"];

/** List or board (issue 27), remembered in this browser. */
type View = "list" | "board";
const VIEW_KEY = "showroom.myClients.view";

function useRememberedView(): [View, (view: View) => void] {
  const [view, setView] = useState<View>(() => {
    try {
      return localStorage.getItem(VIEW_KEY) === "board" ? "board" : "list";
    } catch {
      return "list"; // storage refused (private mode): the list, as before
    }
  });
  const remember = (next: View) => {
    setView(next);
    try {
      localStorage.setItem(VIEW_KEY, next);
    } catch {
      // not remembered; the choice still holds on this page
    }
  };
  return [view, remember];
}

export function MyClientsPage() {
  const { dealership } = useCurrentDealership();
  const seeAll = useCan("seeAllClaimedLeads");
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<LeadStatus | "">("");
  const [source, setSource] = useSourceFilter();
  const [view, setView] = useRememberedView();
  const q = useDeferredValue(search.trim());
  const list = useLeadList(dealership?.id, "my", { q, status, source });
  const { deleting, remove } = useDeleteAction(dealership?.id ?? "", "myClients");
  const title = seeAll ? "All Clients" : "My Clients";

  const columns: LeadColumn[] = [
    { header: "Customer", className: "min-w-44", cell: (lead) => <CustomerCell lead={lead} /> },
    { header: "Contact Information", className: "min-w-56", cell: (lead) => <ContactLines lead={lead} /> },
    { header: "Status", cell: (lead) => <LeadStatusBadge status={lead.status} /> },
    {
      header: "Claimed",
      cell: (lead) => (
        <div className="grid gap-0.5">
          <TimeAgo value={lead.claimedAt} />
          {seeAll && lead.claimedByName && <span className="truncate text-xs text-muted-foreground">by {lead.claimedByName}</span>}
        </div>
      ),
    },
  ];

  const statusLabel = status ? LEAD_STATUS_LABELS[status] : "";
  const sourceText = source ? ` from ${LEAD_SOURCE_LABELS[source]}` : "";
  const empty = q ? (
    <EmptyState icon={<Search />} title="No clients found">
      No clients match &ldquo;{q}&rdquo;{status ? ` with status ${statusLabel}` : ""}
      {sourceText}. Try another name, e-mail or phone number.
    </EmptyState>
  ) : source ? (
    <EmptyState
      icon={<Users />}
      title={`No ${status ? `${statusLabel.toLowerCase()} ` : ""}clients${sourceText}`}
      action={
        <Button variant="outline" size="sm" onClick={() => setSource("")}>
          Show all sources
        </Button>
      }
    >
      {seeAll ? "No claimed lead of the dealership came in this way." : "None of your clients came in this way."}
    </EmptyState>
  ) : (
    <EmptyState icon={<Users />} title={status ? `No ${statusLabel.toLowerCase()} clients` : "No clients assigned"}>
      {seeAll
        ? `There are no ${status ? `${statusLabel.toLowerCase()} ` : "claimed "}clients yet. Check the New Leads section for leads waiting to be claimed.`
        : `You have no ${status ? `${statusLabel.toLowerCase()} ` : ""}clients yet. Claim your first client in the New Leads section.`}
      <div className="mt-4">
        <Button asChild variant="outline" size="sm">
          <Link to="/leads/new">Go to New Leads</Link>
        </Button>
      </div>
    </EmptyState>
  );

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={title}
        description={seeAll ? "Every claimed lead at the dealership." : "The customers you are working with."}
        actions={<LeadsCsvActions dealershipId={dealership?.id ?? ""} filters={{ type: "my", q, status, source }} />}
      />
      <div className="mb-4 flex flex-col gap-3 sm:flex-row">
        <SearchInput value={search} onValueChange={setSearch} placeholder="Search by name, email, or phone..." label="Search clients" />
        <Select value={status || ALL} onValueChange={(v) => setStatus(v === ALL ? "" : (v as LeadStatus))}>
          <SelectTrigger className="sm:w-52" aria-label="Filter by status">
            <SelectValue placeholder="Filter by status" />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={ALL}>All Statuses</SelectItem>
            {FILTERS.map((s) => (
              <SelectItem key={s} value={s}>
                {LEAD_STATUS_LABELS[s]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <LeadSourceSelect value={source} onChange={setSource} />
        <Segmented
          label="Show clients as"
          value={view}
          onChange={setView}
          options={[
            { value: "list", label: "List", icon: <List aria-hidden="true" /> },
            { value: "board", label: "Board", icon: <Columns3 aria-hidden="true" /> },
          ]}
          className="sm:ml-auto sm:w-48"
        />
      </div>
      <Card className="overflow-hidden max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        {list.isPending ? (
          <LeadListSkeleton />
        ) : list.isError && list.leads.length === 0 ? (
          <EmptyState title="Clients could not be loaded" action={<Button onClick={() => void list.refetch()}>Try again</Button>}>
            Check your connection and try again.
          </EmptyState>
        ) : list.leads.length === 0 ? (
          <div className="max-md:rounded-xl max-md:border max-md:bg-card">{empty}</div>
        ) : view === "board" ? (
          <div className="p-3 max-md:p-0">
            <ClientsBoard dealershipId={dealership?.id ?? ""} leads={list.leads} showClaimer={seeAll} />
            <LoadMoreLeads list={list} />
          </div>
        ) : (
          <>
            <LeadList
              label={title}
              showClaimer={seeAll}
              leads={list.leads}
              columns={columns}
              fading={deleting}
              actions={(lead) => (
                <>
                  <Button asChild variant="outline" size="sm">
                    <Link to={`/leads/detail/${lead.id}`} aria-label={`View details of ${fullName(lead)}`}>
                      <Eye />
                      <span className="max-lg:sr-only">View Details</span>
                    </Link>
                  </Button>
                  <Button asChild size="sm">
                    <Link to={`/appointments/new?leadId=${lead.id}`}>
                      <CalendarPlus />
                      Schedule
                    </Link>
                  </Button>
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
