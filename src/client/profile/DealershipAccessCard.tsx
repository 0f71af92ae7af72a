import { Building2 } from "lucide-react";
import { ROLE_LABELS } from "../../shared/constants";
import { Badge } from "../components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { useCurrentDealership } from "../dealerships/dealership-context";

/** Dealership Access (part 2 §2): the current dealership and every membership. */
export function DealershipAccessCard() {
  const { dealership, dealerships, isLoading } = useCurrentDealership();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Dealership Access</CardTitle>
        <CardDescription>
          {dealership ? (
            <>
              Current dealership: <span className="font-medium text-foreground">{dealership.name || "Unknown"}</span>
            </>
          ) : (
            "The dealerships you belong to."
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <h4 className="mb-2 text-sm font-medium">All Dealerships</h4>
        {isLoading ? (
          <Skeleton className="h-14" />
        ) : dealerships.length === 0 ? (
          <p className="rounded-lg border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">No dealership memberships found.</p>
        ) : (
          <ul className="divide-y rounded-lg border">
            {dealerships.map((d) => (
              <li key={d.id} className="flex items-center gap-3 px-4 py-3">
                <Building2 className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                <div className="min-w-0 flex-1">
                  <p className="truncate text-sm font-medium">{d.name || "Unknown"}</p>
                  <p className="truncate text-xs text-muted-foreground">
                    {d.address || "No address"} · {ROLE_LABELS[d.role]}
                  </p>
                </div>
                {d.id === dealership?.id && <Badge variant="success">Currently Active</Badge>}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
