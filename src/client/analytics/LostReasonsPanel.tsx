import { ThumbsDown } from "lucide-react";
import type { SalesRepAnalytics } from "../../shared/schemas/analytics";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { percentText } from "./format";

// Lost reasons on Sales Rep Analytics (issue 27, decision 202): the leads moved to Lost in the page's period, per
// reason, with a bar and the share of all lost. The classes are those of Leads by Source (no new CSS on this page).

export function LostReasonsPanel({ rows, period }: { rows: SalesRepAnalytics["lostReasons"]; period: string }) {
  const total = rows.reduce((sum, r) => sum + r.lost, 0);
  const most = Math.max(1, ...rows.map((r) => r.lost));
  return (
    <Card data-testid="lost-reasons-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ThumbsDown className="size-5 text-primary" aria-hidden="true" />
          Lost Reasons
        </CardTitle>
        <CardDescription>Leads moved to Lost, {period}, by the reason given.</CardDescription>
      </CardHeader>
      <CardContent className="max-md:px-3">
        {rows.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">No lead was lost in this period.</p>
        ) : (
          <table className="w-full text-sm" style={{ tableLayout: "fixed" }} data-testid="lost-reasons">
            <caption className="sr-only">Lost reasons, {period}</caption>
            <colgroup>
              <col />
              <col style={{ width: "4.25rem" }} />
            </colgroup>
            <thead className="text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="py-2 pr-3 text-left font-medium">
                  Reason
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Lost
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.reason} className="border-t">
                  <th scope="row" className="py-2.5 pr-3 text-left font-normal">
                    <span className="block truncate font-medium" title={r.reason}>
                      {r.reason}
                    </span>
                    <span className="mt-1.5 block h-1.5 rounded-full bg-muted" aria-hidden="true">
                      <span className="block h-full rounded-full bg-primary" style={{ width: `${(r.lost / most) * 100}%` }} />
                    </span>
                  </th>
                  <td className="py-2.5 text-right tabular-nums">
                    <span className="block font-semibold">{r.lost}</span>
                    <span className="block text-[11px] text-muted-foreground">{percentText(r.lost, total)}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </CardContent>
    </Card>
  );
}
