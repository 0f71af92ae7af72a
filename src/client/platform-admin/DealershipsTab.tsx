import { format } from "date-fns";
import { Building2, MapPin, Phone, Plus, RefreshCw, Settings2 } from "lucide-react";
import { useState } from "react";
import type { PlatformDealership } from "../../shared/schemas/responses/platform";
import { EmptyState } from "../components/page-header";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { SearchInput } from "../components/ui/search-input";
import { Skeleton } from "../components/ui/skeleton";
import { cn } from "../lib/utils";
import { useDealerships } from "./api";
import { CreateDealershipDialog } from "./DealershipForms";
import { ManageDealershipDialog } from "./ManageDealershipDialog";
import { Pager, useSettled } from "./parts";
import { formatPhone } from "../../shared/phone";

// The Dealerships tab (part 2 §2): name, address, created date, phone, Active badge and Manage; Refresh and
// Add Dealership. Searched and paged on the server (decision 091).

export function DealershipsTab({ createOpen, onCreateOpenChange }: { createOpen: boolean; onCreateOpenChange: (open: boolean) => void }) {
  const [search, setSearch] = useState("");
  const settled = useSettled(search);
  const [page, setPage] = useState(1);
  const dealerships = useDealerships(settled, page);
  const [managedId, setManagedId] = useState<string | null>(null);

  const data = dealerships.data;
  // The dialog follows the list, so a saved name shows at once; a deleted dealership closes it.
  const managed = data?.items.find((d) => d.id === managedId) ?? null;

  return (
    <Card className="overflow-hidden">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b">
        <div className="min-w-0">
          <CardTitle className="flex items-center gap-2">
            Dealerships
            {data && (
              <Badge variant="secondary" data-testid="dealerships-count">
                {data.total.toLocaleString("en-US")}
              </Badge>
            )}
          </CardTitle>
          <CardDescription className="mt-1">Every dealership in service on this installation.</CardDescription>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => void dealerships.refetch()} disabled={dealerships.isFetching}>
            <RefreshCw className={cn(dealerships.isFetching && "animate-spin")} aria-hidden="true" /> Refresh
          </Button>
          <Button onClick={() => onCreateOpenChange(true)}>
            <Plus aria-hidden="true" /> Add Dealership
          </Button>
        </div>
      </CardHeader>
      <div className="border-b px-4 py-3 sm:px-6">
        <SearchInput
          value={search}
          onValueChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
          placeholder="Search by name, address, e-mail or phone..." label="Search dealerships" />
      </div>

      {dealerships.isPending ? (
        <div className="grid gap-3 p-4 sm:p-6" role="status" aria-busy="true" aria-label="Loading dealerships">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-16" />
          ))}
        </div>
      ) : dealerships.isError && !data ? (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 p-6 text-sm">
          <span className="text-destructive">The dealerships could not be loaded.</span>
          <Button size="sm" variant="outline" onClick={() => void dealerships.refetch()}>
            Retry
          </Button>
        </div>
      ) : !data || data.items.length === 0 ? (
        <EmptyState icon={<Building2 />} title={settled ? "No dealerships found" : "No dealerships yet"}>
          {settled ? "No dealership matches this search." : "Add the first dealership and invite its admin."}
        </EmptyState>
      ) : (
        <ul aria-label="Dealerships" className={cn("divide-y", dealerships.isPlaceholderData && "opacity-60")}>
          {data.items.map((d) => (
            <DealershipRow key={d.id} dealership={d} onManage={() => setManagedId(d.id)} />
          ))}
        </ul>
      )}
      {data && <Pager label="Dealerships" page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />}

      <CreateDealershipDialog open={createOpen} onOpenChange={onCreateOpenChange} />
      <ManageDealershipDialog dealership={managed} onClose={() => setManagedId(null)} />
    </Card>
  );
}

function DealershipRow({ dealership, onManage }: { dealership: PlatformDealership; onManage: () => void }) {
  return (
    <li aria-label={dealership.name} className="grid gap-3 px-4 py-4 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:px-6">
      <div className="flex min-w-0 items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary" aria-hidden="true">
          <Building2 className="size-5" />
        </span>
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <span className="truncate font-semibold">{dealership.name}</span>
            <Badge variant={dealership.active ? "success" : "secondary"}>{dealership.active ? "Active" : "Inactive"}</Badge>
          </div>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-[13px] text-muted-foreground">
            <span className="flex min-w-0 items-center gap-1">
              <MapPin className="size-3.5 shrink-0" aria-hidden="true" />
              <span className="truncate">{dealership.address ?? "No address"}</span>
            </span>
            {dealership.phone && (
              <span className="flex items-center gap-1">
                <Phone className="size-3.5" aria-hidden="true" /> {formatPhone(dealership.phone)}
              </span>
            )}
            <span>Created {format(new Date(dealership.createdAt), "MMM d, yyyy")}</span>
          </div>
        </div>
      </div>
      <Button variant="outline" className="justify-self-start pl-3 sm:justify-self-end" onClick={onManage}>
        <Settings2 aria-hidden="true" /> Manage
      </Button>
    </li>
  );
}
