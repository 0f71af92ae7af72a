import { Inbox } from "lucide-react";
import { LEAD_SOURCE_LABELS, leadSourceLabel } from "../../shared/lead-source";
import type { LeadSourceFigures } from "../../shared/schemas/analytics";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { percentText } from "./format";

// Leads by Source on Sales Rep Analytics (issue 14; decision 150): for the page's period, the leads that arrived from
// each source (and each ADF provider), how many were claimed and how many sold (Closed). A four-column table with a
// bar of the arrivals under each name, narrow enough for a 375 px screen without scrolling sideways. Its fixed layout
// and column widths are style attributes: Tailwind's stylesheet is part of the first screen (at its budget), so this
// panel adds no class to it.

export function LeadSourcesPanel({ rows, period }: { rows: LeadSourceFigures[]; period: string }) {
  const most = Math.max(1, ...rows.map((r) => r.arrived));
  const total = rows.reduce((sum, r) => ({ arrived: sum.arrived + r.arrived, claimed: sum.claimed + r.claimed, sold: sum.sold + r.sold }), {
    arrived: 0,
    claimed: 0,
    sold: 0,
  });
  return (
    <Card data-testid="lead-sources-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Inbox className="size-5 text-primary" aria-hidden="true" />
          Leads by Source
        </CardTitle>
        <CardDescription>Leads that arrived, {period}: how many were claimed and how many sold (status Closed).</CardDescription>
      </CardHeader>
      <CardContent className="max-md:px-3">
        {rows.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">No leads arrived in this period.</p>
        ) : (
          <table className="w-full text-sm" style={{ tableLayout: "fixed" }} data-testid="lead-sources">
            <caption className="sr-only">Leads by source, {period}</caption>
            <colgroup>
              <col />
              <col style={{ width: "4.25rem" }} />
              <col style={{ width: "4.25rem" }} />
              <col style={{ width: "3.5rem" }} />
            </colgroup>
            <thead className="text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="py-2 pr-3 text-left font-medium">
                  Source
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Arrived
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Claimed
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Sold
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const label = leadSourceLabel(r.source, r.provider);
                return (
                  <tr key={`${r.source}:${r.provider ?? ""}`} className="border-t" data-testid="lead-source-row">
                    <th scope="row" className="py-2.5 pr-3 text-left font-normal">
                      <span className="flex min-w-0 items-baseline gap-1.5">
                        <span className="truncate font-medium" title={label}>
                          {label}
                        </span>
                        {r.source === "adf" && r.provider && <span className="shrink-0 text-[11px] text-muted-foreground">{LEAD_SOURCE_LABELS.adf}</span>}
                      </span>
                      <span className="mt-1.5 block h-1.5 rounded-full bg-muted" aria-hidden="true">
                        <span className="block h-full rounded-full bg-primary" style={{ width: `${(r.arrived / most) * 100}%` }} />
                      </span>
                    </th>
                    <td className="py-2.5 pr-3 text-right font-semibold tabular-nums">{r.arrived}</td>
                    <Share value={r.claimed} of={r.arrived} className="pr-3" />
                    <Share value={r.sold} of={r.arrived} />
                  </tr>
                );
              })}
            </tbody>
            {rows.length > 1 && (
              <tfoot>
                <tr className="border-t" data-testid="lead-source-total">
                  <th scope="row" className="py-2.5 pr-3 text-left font-semibold">
                    Total
                  </th>
                  <td className="py-2.5 pr-3 text-right font-semibold tabular-nums">{total.arrived}</td>
                  <Share value={total.claimed} of={total.arrived} className="pr-3" />
                  <Share value={total.sold} of={total.arrived} />
                </tr>
              </tfoot>
            )}
          </table>
        )}
      </CardContent>
    </Card>
  );
}

function Share({ value, of, className = "" }: { value: number; of: number; className?: string }) {
  return (
    <td className={`py-2.5 text-right tabular-nums ${className}`}>
      <span className="block font-semibold">{value}</span>
      <span className="block text-[11px] text-muted-foreground">{percentText(value, of)}</span>
    </td>
  );
}
