import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { LEAD_SOURCE_LABELS, LEAD_SOURCES, type LeadSource } from "../../shared/lead-source";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { cn } from "../lib/utils";

// The Source filter of New Leads, My Clients and All Clients (issue 14; decision 151). The choice lives in the page's
// address (?source=adf), so Back, a reload or a shared link show the same list; it goes to the API as ?source= and,
// being part of the list's query key, starts the list again from its first page. The list filters by kind: an ADF
// lead of any provider is "ADF" here (the badge names the provider).

const ALL = "all";

/** The source named by the address, or "" for all sources (an unknown value is ignored, not sent to the server). */
export function sourceFromParam(value: string | null): LeadSource | "" {
  return value !== null && (LEAD_SOURCES as readonly string[]).includes(value) ? (value as LeadSource) : "";
}

/** The page's source filter and its setter; other parameters of the address are kept, the history entry replaced. */
export function useSourceFilter(): [LeadSource | "", (source: LeadSource | "") => void] {
  const [params, setParams] = useSearchParams();
  const source = sourceFromParam(params.get("source"));
  const setSource = useCallback(
    (next: LeadSource | "") =>
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (next) updated.set("source", next);
          else updated.delete("source");
          return updated;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [source, setSource];
}

export function LeadSourceSelect({ value, onChange, className }: { value: LeadSource | ""; onChange: (source: LeadSource | "") => void; className?: string }) {
  return (
    <Select value={value || ALL} onValueChange={(v) => onChange(v === ALL ? "" : sourceFromParam(v))}>
      <SelectTrigger className={cn("sm:w-44", className)} aria-label="Filter by source" data-testid="source-filter">
        <SelectValue placeholder="Filter by source" />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All Sources</SelectItem>
        {LEAD_SOURCES.map((s) => (
          <SelectItem key={s} value={s}>
            {LEAD_SOURCE_LABELS[s]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
