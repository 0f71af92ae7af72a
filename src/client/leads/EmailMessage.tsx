import { Paperclip } from "lucide-react";
import type { ActivityEntry } from "../../shared/activity";
import { Badge } from "../components/ui/badge";
import { cn } from "../lib/utils";

// A mail of the conversation with the customer on the timeline (issue 26, decisions 228-229): the customer's replies
// on one side and the dealership's mail on the other, as a conversation reads; a sent mail says where its delivery is.

const STATUS: Record<string, { label: string; variant: "success" | "outline" | "destructive" }> = {
  queued: { label: "Queued", variant: "outline" },
  sent: { label: "Sent", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
};

/** Bytes as a person reads them (the exact count is in the entry's data). */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function EmailMessage({ entry }: { entry: ActivityEntry }) {
  const data = entry.data as { from?: string; to?: string; body?: string; status?: string; error?: string | null; attachments?: Array<{ name: string; size: number }> };
  const incoming = entry.type === "email.received";
  const status = !incoming && data.status ? STATUS[data.status] : undefined;
  return (
    <div
      className={cn("mt-2 grid min-w-0 gap-1.5 rounded-lg border p-3 text-sm", incoming ? "mr-4 bg-muted/60 sm:mr-16" : "ml-4 bg-card sm:ml-16")}
      data-testid="email-message"
      data-direction={incoming ? "in" : "out"}
    >
      <p className="flex min-w-0 flex-wrap items-center gap-2 text-xs text-muted-foreground">
        <span className="min-w-0 break-all">{incoming ? `From ${data.from ?? ""}` : `To ${data.to ?? ""}`}</span>
        {status ? <Badge variant={status.variant}>{status.label}</Badge> : null}
      </p>
      {data.status === "failed" && data.error ? <p className="break-words text-xs text-destructive">{data.error}</p> : null}
      <p className="whitespace-pre-wrap break-words">{data.body ?? ""}</p>
      {data.attachments?.length ? (
        <ul className="grid gap-1" aria-label="Attachments">
          {data.attachments.map((a, i) => (
            <li key={`${a.name}-${i}`} className="flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground">
              <Paperclip aria-hidden="true" className="size-3.5 shrink-0" />
              <span className="min-w-0 break-all text-foreground">{a.name}</span>
              <span className="shrink-0">({sizeText(a.size)})</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
