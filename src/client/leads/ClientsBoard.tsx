import { useState, type DragEvent } from "react";
import { LEAD_STATUS_LABELS, type LeadStatus } from "../../shared/constants";
import { fullName } from "../../shared/format";
import type { Lead } from "../../shared/schemas/lead";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useUpdateLeadStatus } from "./api";
import { ContactLines, CustomerCell, TimeAgo } from "./components";
import { LostReasonDialog } from "./LostReasonDialog";

// My Clients as a board by status (issue 27, decision 202): a column per worked status; a card moves by dragging it
// to a column or, from the keyboard or a phone, with its "Move to" menu. A move to Lost asks for the reason first.

export const BOARD_STATUSES: LeadStatus[] = ["claimed", "contacted", "qualified", "inProgress", "closed", "lost"];

export function ClientsBoard({ dealershipId, leads, showClaimer }: { dealershipId: string; leads: Lead[]; showClaimer: boolean }) {
  const change = useUpdateLeadStatus(dealershipId);
  const [losing, setLosing] = useState<Lead | null>(null);
  const [dropTarget, setDropTarget] = useState<LeadStatus | null>(null);

  const move = (lead: Lead, status: LeadStatus, lostReason?: string) => {
    if (status === lead.status) return;
    if (status === "lost" && !lostReason) {
      setLosing(lead);
      return;
    }
    change.mutate(
      { leadId: lead.id, status, lostReason },
      {
        onSuccess: () => {
          setLosing(null);
          toast({ title: `${fullName(lead)} moved to ${LEAD_STATUS_LABELS[status]}`, variant: "success" });
        },
        onError: (error) => toast({ title: "The lead did not move", description: serverMessage(error, "Try again."), variant: "destructive" }),
      },
    );
  };

  const drop = (status: LeadStatus) => (event: DragEvent) => {
    event.preventDefault();
    setDropTarget(null);
    const lead = leads.find((l) => l.id === event.dataTransfer.getData("text/x-lead-id"));
    if (lead) move(lead, status);
  };

  return (
    <>
      <div className="relative -mx-4 overflow-x-auto px-4 pb-2 sm:mx-0 sm:px-0" data-testid="clients-board">
        <div className="grid auto-cols-[minmax(15rem,1fr)] grid-flow-col gap-3">
          {BOARD_STATUSES.map((status) => {
            const column = leads.filter((l) => l.status === status);
            const headingId = `board-${status}`;
            return (
              <section
                key={status}
                aria-labelledby={headingId}
                data-status={status}
                onDragOver={(e) => {
                  e.preventDefault();
                  setDropTarget(status);
                }}
                onDragLeave={() => setDropTarget((t) => (t === status ? null : t))}
                onDrop={drop(status)}
                className={cn("flex min-h-40 min-w-0 flex-col rounded-xl border bg-muted/40 p-2", dropTarget === status && "border-primary bg-primary/5")}
              >
                <h2 id={headingId} className="flex items-center justify-between px-1 py-1 text-sm font-semibold">
                  {LEAD_STATUS_LABELS[status]}
                  <span className="rounded-full bg-card px-2 text-xs font-medium text-muted-foreground" aria-label={`${column.length} ${column.length === 1 ? "client" : "clients"}`}>
                    {column.length}
                  </span>
                </h2>
                <ul className="mt-1 grid gap-2">
                  {column.map((lead) => (
                    <li
                      key={lead.id}
                      draggable
                      onDragStart={(e) => {
                        e.dataTransfer.setData("text/x-lead-id", lead.id);
                        e.dataTransfer.effectAllowed = "move";
                      }}
                      data-testid="board-card"
                      className="grid min-w-0 cursor-grab gap-2 rounded-lg border bg-card p-3 shadow-xs active:cursor-grabbing"
                    >
                      <CustomerCell lead={lead} showDescription={false} />
                      <ContactLines lead={lead} compact />
                      <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
                        <TimeAgo value={lead.claimedAt} />
                        {showClaimer && lead.claimedByName && <span className="min-w-0 truncate">by {lead.claimedByName}</span>}
                      </div>
                      {lead.status === "lost" && lead.lostReason && <p className="text-xs text-muted-foreground">Lost: {lead.lostReason}</p>}
                      <Select value={lead.status} onValueChange={(next) => move(lead, next as LeadStatus)} disabled={change.isPending}>
                        <SelectTrigger className="h-8 w-full" aria-label={`Move ${fullName(lead)} to`}>
                          <SelectValue />
                        </SelectTrigger>
                        <SelectContent>
                          {BOARD_STATUSES.map((s) => (
                            <SelectItem key={s} value={s}>
                              {LEAD_STATUS_LABELS[s]}
                            </SelectItem>
                          ))}
                        </SelectContent>
                      </Select>
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
      </div>
      <LostReasonDialog
        dealershipId={dealershipId}
        leadName={losing ? fullName(losing) : ""}
        open={losing !== null}
        pending={change.isPending}
        onCancel={() => setLosing(null)}
        onConfirm={(reason) => losing && move(losing, "lost", reason)}
      />
    </>
  );
}
