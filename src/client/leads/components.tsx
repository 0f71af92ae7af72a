import { Check, Loader2, Mail, Phone } from "lucide-react";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { CLAIMED_LABEL_MS, LEAD_ROW_SKELETONS, LEAD_STATUS_LABELS, type LeadStatus } from "../../shared/constants";
import { fullName, relativeTime } from "../../shared/format";
import type { Lead } from "../../shared/schemas/lead";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Skeleton } from "../components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../components/ui/table";
import { LeadSourceBadge } from "../intake/LeadSourceBadge";
import { cn } from "../lib/utils";
import { phoneHref } from "../../shared/phone-text";
import { usePhoneText } from "../lib/phone-text";

// Pieces shared by the leads screens and the dashboard: status badge, contact lines, the Claim button with its
// "Claiming..." / "Claimed!" states, the row menu with Delete Lead, and a list drawn as a table on wide screens and as
// cards on phones (part 1 §2.4, §2.5).

/** part 2 §4: badge styling only for new and claimed; other statuses are neutral. */
export function LeadStatusBadge({ status }: { status: LeadStatus }) {
  const variant = status === "new" ? "primary" : status === "claimed" ? "success" : "secondary";
  return (
    <Badge variant={variant} data-testid="lead-status">
      {LEAD_STATUS_LABELS[status] ?? status}
    </Badge>
  );
}

export function ContactLines({ lead, compact = false }: { lead: Pick<Lead, "email" | "phone">; compact?: boolean }) {
  const phone = usePhoneText(lead.phone);
  if (!lead.email && !lead.phone) return <span className="text-sm text-muted-foreground">No contact details</span>;
  return (
    <div className="grid min-w-0 gap-1 text-sm">
      {lead.email && (
        <a href={`mailto:${lead.email}`} className={cn("inline-flex min-w-0 items-center gap-1.5 text-foreground hover:text-primary hover:underline", compact ? "max-w-[170px]" : "max-w-[240px]")}>
          <Mail className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span className="truncate">{lead.email}</span>
        </a>
      )}
      {lead.phone && (
        <a href={phoneHref(lead.phone) ?? undefined} className="inline-flex items-center gap-1.5 whitespace-nowrap tabular-nums text-foreground hover:text-primary hover:underline">
          <Phone className="size-3.5 shrink-0 text-muted-foreground" aria-hidden="true" />
          {phone}
        </a>
      )}
    </div>
  );
}

export function CustomerCell({ lead, showDescription = true }: { lead: Lead; showDescription?: boolean }) {
  return (
    <div className="min-w-0">
      {/* The whole name, wrapped: a cut "Maximiliana-Josefina Featherst…" is not a name a rep can greet (issue 30). */}
      <Link to={`/leads/detail/${lead.id}`} className="block break-words font-semibold text-foreground hover:text-primary hover:underline">
        {fullName(lead)}
      </Link>
      <LeadSourceBadge lead={lead} />
      {showDescription && lead.description && <p className="mt-0.5 line-clamp-1 max-w-64 text-xs text-muted-foreground">{lead.description}</p>}
    </div>
  );
}

export function TimeAgo({ value }: { value: string | null }) {
  if (!value) return <span className="text-muted-foreground">—</span>;
  return (
    <time dateTime={value} title={new Date(value).toLocaleString()} className="whitespace-nowrap text-sm text-muted-foreground">
      {relativeTime(value)}
    </time>
  );
}

/**
 * Claim with its states (part 1 §2.4): "Claiming..." while the call runs, then "Claimed!" for 1.5 s.
 * `onClaim` resolves true when the claim succeeded.
 */
export function ClaimButton({ onClaim, size = "sm", className }: { onClaim: () => Promise<boolean>; size?: "sm" | "default"; className?: string }) {
  const [state, setState] = useState<"idle" | "claiming" | "claimed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  async function claim() {
    setState("claiming");
    const ok = await onClaim();
    if (!ok) return setState("idle");
    setState("claimed");
    timer.current = setTimeout(() => setState("idle"), CLAIMED_LABEL_MS);
  }
  return (
    <Button size={size} variant={state === "claimed" ? "success" : "default"} disabled={state !== "idle"} onClick={() => void claim()} className={className} aria-live="polite">
      {state === "claiming" ? (
        <>
          <Loader2 className="animate-spin" aria-hidden="true" />
          Claiming...
        </>
      ) : state === "claimed" ? (
        <>
          <Check aria-hidden="true" />
          Claimed!
        </>
      ) : (
        "Claim"
      )}
    </Button>
  );
}

export interface LeadColumn {
  header: string;
  className?: string;
  cell: (lead: Lead) => ReactNode;
}

/**
 * A list of leads: a table from the md breakpoint, cards below it. `actions` draws a row's buttons; a row whose id is
 * in `fading` is being deleted and shows faded (part 1 §2.4).
 */
export function LeadList({
  leads,
  columns,
  actions,
  fading,
  label,
  showClaimer = false,
}: {
  leads: Lead[];
  columns: LeadColumn[];
  actions: (lead: Lead) => ReactNode;
  fading?: ReadonlySet<string>;
  label: string;
  /** Cards also say who claimed the lead (All Clients). */
  showClaimer?: boolean;
}) {
  return (
    <>
      <div className="hidden md:block">
        <Table aria-label={label}>
          <TableHeader>
            <TableRow>
              {columns.map((c) => (
                <TableHead key={c.header} className={c.className}>
                  {c.header}
                </TableHead>
              ))}
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {leads.map((lead) => (
              <TableRow
                key={lead.id}
                data-testid="lead-row"
                data-lead-id={lead.id}
                aria-busy={fading?.has(lead.id) || undefined}
                className={cn("transition-opacity", fading?.has(lead.id) && "pointer-events-none opacity-40")}
              >
                {columns.map((c) => (
                  <TableCell key={c.header} className={cn("py-3 align-middle", c.className)}>
                    {c.cell(lead)}
                  </TableCell>
                ))}
                <TableCell className="py-3 text-right align-middle">
                  <div className="flex items-center justify-end gap-2">{actions(lead)}</div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {/* grid-cols-1 (minmax(0, 1fr)): a card is as wide as the list, however long a name or a row of buttons (issue 30). */}
      <ul className="grid grid-cols-1 gap-3 md:hidden" aria-label={label}>
        {leads.map((lead) => (
          <li
            key={lead.id}
            data-testid="lead-card"
            data-lead-id={lead.id}
            aria-busy={fading?.has(lead.id) || undefined}
            className={cn("rounded-xl border bg-card p-4 shadow-xs transition-opacity", fading?.has(lead.id) && "pointer-events-none opacity-40")}
          >
            <div className="flex items-start justify-between gap-3">
              <CustomerCell lead={lead} />
              <LeadStatusBadge status={lead.status} />
            </div>
            <div className="mt-3">
              <ContactLines lead={lead} />
            </div>
            <div className="mt-3 flex flex-wrap items-center justify-between gap-2 border-t pt-3">
              <span className="min-w-0 text-xs text-muted-foreground">
                {lead.claimedAt ? "Claimed " : "Created "}
                <TimeAgo value={lead.claimedAt ?? lead.createdAt} />
                {showClaimer && lead.claimedByName && <span className="block truncate">by {lead.claimedByName}</span>}
              </span>
              <div className="flex items-center gap-2">{actions(lead)}</div>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}

export function LeadListSkeleton({ rows = LEAD_ROW_SKELETONS }: { rows?: number }) {
  return (
    <div role="status" aria-busy="true" aria-label="Loading leads" className="grid gap-3 p-4 md:p-0">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} data-testid="lead-skeleton" className="flex items-center gap-4 rounded-lg border p-4 md:rounded-none md:border-x-0 md:border-t-0">
          <div className="grid flex-1 gap-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3 w-56" />
          </div>
          <Skeleton className="hidden h-5 w-16 rounded-full md:block" />
          <Skeleton className="hidden h-4 w-24 md:block" />
          <Skeleton className="h-8 w-20" />
        </div>
      ))}
    </div>
  );
}

/** The next keyset page of a lead list (decision 012), under the list. */
export function LoadMoreLeads({ list }: { list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown } }) {
  if (!list.hasNextPage) return null;
  return (
    <div className="flex justify-center border-t p-4 max-md:border-0">
      <Button variant="outline" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
        {list.isFetchingNextPage ? "Loading..." : "Load more"}
      </Button>
    </div>
  );
}
