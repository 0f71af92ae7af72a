import { CalendarSync, Check, Copy, ExternalLink, RefreshCw } from "lucide-react";
import { useState } from "react";
import type { CalendarFeedScope } from "../../shared/schemas/appointment";
import type { CalendarFeedCreated } from "../../shared/schemas/responses/appointments";
import { Button } from "../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "../components/ui/dialog";
import { Input } from "../components/ui/input";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useCalendarFeed, useDeleteCalendarFeed, useIssueCalendarFeed } from "./api";

/** A timestamp as the person's own day: "Nov 21, 2026". */
function shortDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" });
}

// "Subscribe in your calendar" (decision 023): a private iCalendar link for Google, Outlook or Apple Calendar.
// The server keeps only a hash of the secret, so the link is shown right after it is made; making a new one
// turns the old one off.

const SCOPE_OPTIONS: Array<{ value: CalendarFeedScope; label: string; hint: string }> = [
  { value: "mine", label: "My appointments", hint: "Appointments assigned to you or booked by you." },
  { value: "dealership", label: "All dealership appointments", hint: "Everyone's appointments at this dealership." },
];

export function SubscribeDialog({ dealershipId, dealershipName }: { dealershipId: string; dealershipName: string }) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<CalendarFeedCreated | null>(null);
  // null until the user picks: then the existing feed's scope (or "mine") is shown.
  const [picked, setPicked] = useState<CalendarFeedScope | null>(null);
  const [copied, setCopied] = useState(false);
  const feed = useCalendarFeed(dealershipId, open);
  const issue = useIssueCalendarFeed(dealershipId);
  const remove = useDeleteCalendarFeed(dealershipId);
  const info = feed.data;
  const scope: CalendarFeedScope = picked ?? info?.scope ?? "mine";

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      setCreated(null);
      setCopied(false);
      setPicked(null);
    }
  }

  function makeLink() {
    issue.mutate(info?.canChooseDealership ? scope : "mine", {
      onSuccess: (result) => {
        setCreated(result);
        setCopied(false);
      },
      onError: (error) =>
        toast({ title: "Could not create the link", description: serverMessage(error, "Please try again."), variant: "destructive" }),
    });
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
    } catch {
      // Clipboard refused (e.g. not a secure context): select the text so the user can copy it.
      const input = document.getElementById("calendar-feed-url") as HTMLInputElement | null;
      input?.select();
      return;
    }
    setCopied(true);
    toast({ title: "Link copied", description: "Paste it into your calendar app's subscribe-by-URL option.", variant: "success" });
  }

  function turnOff() {
    remove.mutate(undefined, {
      onSuccess: () => {
        setCreated(null);
        toast({ title: "Calendar subscription turned off", description: "The old link no longer works." });
      },
      onError: (error) => toast({ title: "Could not turn it off", description: serverMessage(error, "Please try again."), variant: "destructive" }),
    });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="outline" aria-label="Subscribe in your calendar">
          <CalendarSync />
          <span className="sm:hidden">Subscribe</span>
          <span className="hidden sm:inline">Subscribe in your calendar</span>
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>Subscribe in your calendar</DialogTitle>
          <DialogDescription>
            See your {dealershipName} appointments in Google Calendar, Outlook or Apple Calendar. They update by themselves; times are in the
            dealership's time zone.
          </DialogDescription>
        </DialogHeader>

        {feed.isPending ? (
          <div className="grid gap-3">
            <Skeleton className="h-5 w-2/3" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : created ? (
          <div className="grid gap-4" data-testid="calendar-feed-created">
            <div className="grid gap-2">
              <label htmlFor="calendar-feed-url" className="text-sm font-medium">
                Your private calendar link
              </label>
              <div className="flex gap-2">
                <Input id="calendar-feed-url" readOnly value={created.url} className="font-mono text-xs sm:text-xs" onFocus={(e) => e.currentTarget.select()} />
                <Button variant={copied ? "success" : "default"} onClick={() => void copy(created.url)} className="shrink-0">
                  {copied ? <Check /> : <Copy />}
                  {copied ? "Copied" : "Copy"}
                </Button>
              </div>
              <p className="text-xs text-muted-foreground">
                Keep it private: anyone with this link can see these appointments. For your security it is shown only now.
              </p>
            </div>
            <Button asChild variant="outline" className="w-fit">
              <a href={created.webcalUrl}>
                <ExternalLink />
                Open in calendar app
              </a>
            </Button>
            <ul className="grid gap-1.5 rounded-lg bg-muted/60 p-3 text-sm text-muted-foreground">
              <li>
                <span className="font-medium text-foreground">Google Calendar:</span> Other calendars → + → From URL, paste the link.
              </li>
              <li>
                <span className="font-medium text-foreground">Outlook:</span> Add calendar → Subscribe from web, paste the link.
              </li>
              <li>
                <span className="font-medium text-foreground">Apple Calendar:</span> File → New Calendar Subscription, or tap “Open in calendar app”.
              </li>
            </ul>
          </div>
        ) : (
          <div className="grid gap-4">
            {info?.exists && (
              <div className="rounded-lg border bg-muted/40 p-3 text-sm" data-testid="calendar-feed-exists">
                <p className="font-medium">
                  You have a subscription link ({info.scope === "dealership" ? "all dealership appointments" : "my appointments"}), made{" "}
                  {info.createdAt ? shortDate(info.createdAt) : "earlier"}
                  {info.lastFetchedAt ? `, last used by your calendar app ${shortDate(info.lastFetchedAt)}` : ", not used yet"}.
                </p>
                <p className="mt-1 text-muted-foreground">
                  The link is shown only once. Make a new one to see it again — the old link stops working straight away.
                </p>
              </div>
            )}
            {info?.canChooseDealership && (
              <fieldset className="grid gap-2">
                <legend className="mb-1 text-sm font-medium">What to include</legend>
                {SCOPE_OPTIONS.map((option) => (
                  <label
                    key={option.value}
                    className={cn(
                      "flex cursor-pointer items-start gap-3 rounded-lg border p-3 transition-colors hover:bg-muted/50",
                      scope === option.value && "border-primary/50 bg-accent/60",
                    )}
                  >
                    <input
                      type="radio"
                      name="calendar-feed-scope"
                      value={option.value}
                      checked={scope === option.value}
                      onChange={() => setPicked(option.value)}
                      className="mt-0.5 size-4 accent-[var(--primary)]"
                    />
                    <span>
                      <span className="block text-sm font-medium">{option.label}</span>
                      <span className="block text-xs text-muted-foreground">{option.hint}</span>
                    </span>
                  </label>
                ))}
              </fieldset>
            )}
          </div>
        )}

        <DialogFooter>
          {info?.exists && !created && (
            <Button variant="ghost" className="text-destructive hover:bg-destructive/10 sm:mr-auto" onClick={turnOff} disabled={remove.isPending}>
              {remove.isPending && <Spinner />}
              Turn off
            </Button>
          )}
          {created ? (
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              Done
            </Button>
          ) : (
            <Button onClick={makeLink} disabled={issue.isPending || feed.isPending}>
              {issue.isPending ? <Spinner /> : info?.exists ? <RefreshCw /> : <CalendarSync />}
              {info?.exists ? "Regenerate link" : "Create link"}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
