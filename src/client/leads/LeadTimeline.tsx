import { CalendarClock, Car, GitMerge, History, Mail, Pencil, Phone, PlusCircle, StickyNote, Trash2, Upload, UserCheck } from "lucide-react";
import { RadioGroup } from "radix-ui";
import { useId, useLayoutEffect, useMemo, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { CALL_OUTCOME_LABELS, CALL_OUTCOMES, NOTE_MAX, type ActivityEntry, type ActivityFilter, type CallOutcome } from "../../shared/activity";
import { fullName } from "../../shared/format";
import { useAuth } from "../auth/auth-provider";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { Label } from "../components/ui/label";
import { Segmented } from "../components/ui/segmented";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { Textarea } from "../components/ui/textarea";
import { useCurrentDealership, useRole } from "../dealerships/dealership-context";
import { fieldErrors, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useDealershipMembers } from "./api";
import { TimeAgo } from "./components";
import { EmailComposer } from "./EmailComposer";
import { EmailMessage } from "./EmailMessage";
import { insertMention, matchMembers, mentionQueryAt, mentionsIn, type Mentionable } from "./mentions";
import { useAddNote, useDeleteNote, useEditNote, useLeadActivity, useLogCall } from "./timeline-api";

// The lead page's Activity panel (issue 26): a composer (a note with @mentions, or a logged call) over the lead's
// timeline, newest first, filtered. A colleague's note or call appears without a reload (the socket's lead_activity
// refreshes every query under ["/api/leads", leadId]).

const FILTERS: ReadonlyArray<{ value: ActivityFilter; label: string }> = [
  { value: "all", label: "All" },
  { value: "notes", label: "Notes" },
  { value: "calls", label: "Calls" },
  { value: "emails", label: "E-mails" },
  { value: "changes", label: "Changes" },
];

const FIELD_LABELS: Record<string, string> = {
  firstName: "First name",
  lastName: "Last name",
  email: "E-mail",
  phone: "Phone",
  description: "Description",
  status: "Status",
  lostReason: "Lost reason",
};

function iconOf(type: ActivityEntry["type"]): ReactNode {
  const props = { "aria-hidden": true, className: "size-4" } as const;
  if (type.startsWith("note.")) return <StickyNote {...props} />;
  if (type === "call.logged") return <Phone {...props} />;
  if (type.startsWith("email.")) return <Mail {...props} />;
  if (type.startsWith("appointment.")) return <CalendarClock {...props} />;
  if (type.startsWith("test_drive.")) return <Car {...props} />;
  if (type === "lead.merged") return <GitMerge {...props} />;
  if (type === "lead.imported") return <Upload {...props} />;
  if (type === "lead.created") return <PlusCircle {...props} />;
  if (type === "lead.claimed" || type === "lead.assigned") return <UserCheck {...props} />;
  return <History {...props} />;
}

const shown = (value: unknown) => (value === null || value === undefined || value === "" ? "(empty)" : String(value));

/** A lead edit's fields, each before and after. */
function Changes({ changes }: { changes: Record<string, { before: unknown; after: unknown }> }) {
  const rows = Object.entries(changes);
  if (rows.length === 0) return null;
  return (
    <ul className="mt-1 grid gap-0.5 text-sm text-muted-foreground">
      {rows.map(([field, { before, after }]) => (
        <li key={field} className="break-words">
          <span className="font-medium text-foreground">{FIELD_LABELS[field] ?? field}:</span> <del>{shown(before)}</del> → <ins className="no-underline">{shown(after)}</ins>
        </li>
      ))}
    </ul>
  );
}

function NoteBody({ text, className }: { text: string; className?: string }) {
  return <p className={cn("mt-1 whitespace-pre-wrap break-words text-sm", className)}>{text}</p>;
}

function EntryItem({ entry, mine, mayDeleteAny, leadId }: { entry: ActivityEntry; mine: boolean; mayDeleteAny: boolean; leadId: string }) {
  const data = entry.data as Record<string, unknown>;
  const edit = useEditNote(leadId);
  const remove = useDeleteNote(leadId);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [draft, setDraft] = useState(String(data.body ?? ""));
  const editId = useId();
  const noteId = typeof data.noteId === "string" ? data.noteId : null;
  const actions = entry.type === "note.added" && noteId && (mine || mayDeleteAny);

  const save = (event: FormEvent) => {
    event.preventDefault();
    edit.mutate(
      { id: noteId!, body: draft },
      {
        onSuccess: () => setEditing(false),
        onError: (error) => toast({ title: "The note was not saved", description: fieldErrors(error).body ?? serverMessage(error, "Try again."), variant: "destructive" }),
      },
    );
  };

  return (
    <li className="flex gap-3 py-3" data-testid="activity-entry" data-type={entry.type}>
      <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground">{iconOf(entry.type)}</span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
          <span className="font-medium break-words">{entry.summary}</span>
          <span className="text-muted-foreground break-words">{entry.actor ? fullName(entry.actor) : entry.type === "email.received" ? "Customer" : "System"}</span>
          <TimeAgo value={entry.at} />
        </p>
        {entry.type === "lead.updated" || entry.type === "lead.status_changed" ? <Changes changes={(data.changes ?? {}) as Record<string, { before: unknown; after: unknown }>} /> : null}
        {entry.type === "note.edited" ? (
          <div className="mt-1 grid gap-1 text-sm">
            <span className="sr-only">Before:</span>
            <NoteBody text={String(data.previousBody ?? "")} className="text-muted-foreground line-through" />
            <span className="sr-only">After:</span>
            <NoteBody text={String(data.body ?? "")} />
          </div>
        ) : null}
        {(entry.type === "note.added" || entry.type === "note.deleted") && !editing ? (
          <NoteBody text={String(data.body ?? "")} className={entry.type === "note.deleted" ? "text-muted-foreground line-through" : undefined} />
        ) : null}
        {entry.type === "call.logged" && data.notes ? <NoteBody text={String(data.notes)} /> : null}
        {entry.type === "email.sent" || entry.type === "email.received" ? <EmailMessage entry={entry} /> : null}
        {editing ? (
          <form onSubmit={save} className="mt-2 grid gap-2" aria-label="Edit note">
            <Label htmlFor={editId} className="sr-only">
              Note
            </Label>
            <Textarea id={editId} value={draft} maxLength={NOTE_MAX} onChange={(e) => setDraft(e.target.value)} rows={3} />
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="outline" size="sm" onClick={() => setEditing(false)}>
                Cancel
              </Button>
              <Button type="submit" size="sm" disabled={edit.isPending}>
                Save note
              </Button>
            </div>
          </form>
        ) : null}
        {actions && !editing ? (
          <div className="mt-1 flex flex-wrap gap-1">
            {mine ? (
              <Button variant="ghost" size="sm" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" />
                Edit
              </Button>
            ) : null}
            <Button
              variant="ghost"
              size="sm"
              className={confirming ? "text-destructive" : undefined}
              disabled={remove.isPending}
              onClick={() => {
                if (!confirming) return setConfirming(true);
                remove.mutate(noteId!, {
                  onError: (error) => toast({ title: "The note was not deleted", description: serverMessage(error, "Try again."), variant: "destructive" }),
                  onSettled: () => setConfirming(false),
                });
              }}
            >
              <Trash2 aria-hidden="true" />
              {confirming ? "Confirm delete" : "Delete"}
            </Button>
          </div>
        ) : null}
      </div>
    </li>
  );
}

/** A note's text box that offers the dealership's members after "@" (arrow keys, Enter or Tab to pick, Escape to close). */
function MentionTextarea({
  id,
  value,
  onChange,
  members,
  onPick,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  members: readonly Mentionable[];
  onPick: (member: Mentionable) => void;
  describedBy?: string;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const caretAfterPick = useRef<number | null>(null);
  const listId = useId();
  const [open, setOpen] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const options = open ? matchMembers(members, open.query) : [];
  const showing = open !== null && options.length > 0;

  const look = (text: string, caret: number) => {
    setOpen(mentionQueryAt(text, caret));
    setActive(0);
  };

  const pick = (member: Mentionable) => {
    const element = ref.current;
    if (!open || !element) return;
    const next = insertMention(value, open.start, element.selectionStart, member.name);
    caretAfterPick.current = next.caret;
    onChange(next.text);
    onPick(member);
    setOpen(null);
  };

  // The caret goes after the inserted name once the new text is on screen (before the next key press lands).
  useLayoutEffect(() => {
    const caret = caretAfterPick.current;
    if (caret === null || !ref.current) return;
    caretAfterPick.current = null;
    ref.current.focus();
    ref.current.setSelectionRange(caret, caret);
  }, [value]);

  const keyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!showing) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setActive((i) => (i + (event.key === "ArrowDown" ? 1 : options.length - 1)) % options.length);
    } else if (event.key === "Enter" || event.key === "Tab") {
      event.preventDefault();
      pick(options[active]!);
    } else if (event.key === "Escape") {
      event.preventDefault();
      setOpen(null);
    }
  };

  return (
    <div className="relative">
      <Textarea
        ref={ref}
        id={id}
        value={value}
        rows={3}
        maxLength={NOTE_MAX}
        placeholder="Add a note. Type @ to mention a colleague."
        aria-autocomplete="list"
        aria-controls={showing ? listId : undefined}
        aria-activedescendant={showing ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        onChange={(e) => {
          onChange(e.target.value);
          look(e.target.value, e.target.selectionStart);
        }}
        onKeyDown={keyDown}
        onClick={(e) => look(value, e.currentTarget.selectionStart)}
        onBlur={() => setTimeout(() => setOpen(null), 150)}
      />
      {showing ? (
        <ul id={listId} role="listbox" aria-label="Mention a colleague" className="absolute inset-x-0 top-full z-20 mt-1 max-h-60 overflow-auto rounded-md border bg-popover p-1 shadow-md">
          {options.map((member, i) => (
            <li
              key={member.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={cn("cursor-pointer truncate rounded px-2 py-1.5 text-sm", i === active && "bg-accent text-accent-foreground")}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(member);
              }}
            >
              {member.name}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Composer({ leadId }: { leadId: string }) {
  const { user } = useAuth();
  const { dealership } = useCurrentDealership();
  const members = useDealershipMembers(dealership?.id);
  const mentionable = useMemo<Mentionable[]>(
    () => (members.data ?? []).filter((m) => m.active && m.user.id !== user?.id).map((m) => ({ id: m.user.id, name: fullName({ firstName: m.user.firstName ?? "", lastName: m.user.lastName ?? "" }) || m.user.email })),
    [members.data, user?.id],
  );
  const [mode, setMode] = useState<"note" | "call" | "email">("note");
  const [body, setBody] = useState("");
  const [picked, setPicked] = useState<Mentionable[]>([]);
  const [outcome, setOutcome] = useState<CallOutcome>("reached");
  const [callNotes, setCallNotes] = useState("");
  const [error, setError] = useState<string | null>(null);
  const addNote = useAddNote(leadId);
  const logCall = useLogCall(leadId);
  const ids = { note: useId(), outcome: useId(), callNotes: useId(), error: useId() };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const failed = (what: string) => (e: unknown) => {
      const fields = fieldErrors(e);
      setError(fields.body ?? fields.mentions ?? fields.notes ?? fields.outcome ?? null);
      toast({ title: `The ${what} was not saved`, description: serverMessage(e, "Try again."), variant: "destructive" });
    };
    if (mode === "note") {
      if (!body.trim()) return setError("Write something first.");
      addNote.mutate(
        { body, mentions: mentionsIn(body, picked) },
        {
          onSuccess: () => {
            setBody("");
            setPicked([]);
            toast({ title: "Note added", variant: "success" });
          },
          onError: failed("note"),
        },
      );
    } else {
      logCall.mutate(
        { outcome, notes: callNotes.trim() ? callNotes : null },
        {
          onSuccess: () => {
            setCallNotes("");
            toast({ title: "Call logged", variant: "success" });
          },
          onError: failed("call"),
        },
      );
    }
  };

  const choice = (
    <Segmented
      label="Add to the timeline"
      // Three choices on a phone: their words without the icons, so "Log call" and "E-mail" are read whole.
      className="max-sm:[&_svg]:hidden"
      value={mode}
      onChange={(v) => {
        setMode(v);
        setError(null);
      }}
      options={[
        { value: "note", label: "Note", icon: <StickyNote aria-hidden="true" /> },
        { value: "call", label: "Log call", icon: <Phone aria-hidden="true" /> },
        { value: "email", label: "E-mail", icon: <Mail aria-hidden="true" /> },
      ]}
    />
  );

  // Writing to the customer is a form of its own (subject, template, message): the choice stays above it.
  if (mode === "email") {
    return (
      <div className="grid gap-3 rounded-lg border p-3">
        {choice}
        <EmailComposer leadId={leadId} />
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="grid gap-3 rounded-lg border p-3" aria-label={mode === "note" ? "Add a note" : "Log a call"} noValidate>
      {choice}
      {mode === "note" ? (
        <div className="grid gap-1.5">
          <Label htmlFor={ids.note}>Note</Label>
          <MentionTextarea
            id={ids.note}
            value={body}
            onChange={setBody}
            members={mentionable}
            onPick={(m) => setPicked((list) => [...list.filter((x) => x.id !== m.id), m])}
            describedBy={error ? ids.error : undefined}
          />
        </div>
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <Label htmlFor={ids.outcome}>Outcome</Label>
            <Select value={outcome} onValueChange={(v) => setOutcome(v as CallOutcome)}>
              <SelectTrigger id={ids.outcome} className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {CALL_OUTCOMES.map((o) => (
                  <SelectItem key={o} value={o}>
                    {CALL_OUTCOME_LABELS[o]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="grid gap-1.5 sm:col-span-2">
            <Label htmlFor={ids.callNotes}>Call notes (optional)</Label>
            <Textarea id={ids.callNotes} value={callNotes} onChange={(e) => setCallNotes(e.target.value)} rows={2} maxLength={2000} aria-describedby={error ? ids.error : undefined} />
          </div>
        </div>
      )}
      {error ? (
        <p id={ids.error} className="text-sm text-destructive" role="alert">
          {error}
        </p>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={addNote.isPending || logCall.isPending}>
          {mode === "note" ? "Add note" : "Log call"}
        </Button>
      </div>
    </form>
  );
}

/** The filter: Segmented's look, in three columns on a phone and five from sm up (five would not fit at 375 px). */
function FilterChoice({ value, onChange }: { value: ActivityFilter; onChange: (value: ActivityFilter) => void }) {
  return (
    <RadioGroup.Root
      aria-label="Show"
      value={value}
      onValueChange={(v) => onChange(v as ActivityFilter)}
      orientation="horizontal"
      className="grid grid-cols-3 gap-1 rounded-lg border bg-muted p-1 sm:grid-cols-5"
    >
      {FILTERS.map((o) => (
        <RadioGroup.Item
          key={o.value}
          value={o.value}
          className="flex h-8 min-w-0 items-center justify-center rounded-md px-2 text-sm font-medium text-muted-foreground outline-none transition hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/30 data-[state=checked]:bg-card data-[state=checked]:text-foreground data-[state=checked]:shadow-sm"
        >
          {o.label}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}

export function LeadTimeline({ leadId }: { leadId: string }) {
  const { user } = useAuth();
  const { role } = useRole();
  const [filter, setFilter] = useState<ActivityFilter>("all");
  const activity = useLeadActivity(leadId, filter);
  const headingId = useId();

  return (
    <Card data-testid="lead-timeline" aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId}>Activity</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Composer leadId={leadId} />
        <FilterChoice value={filter} onChange={setFilter} />
        {activity.isLoading ? (
          <div className="grid gap-3">
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-12 w-full" />
          </div>
        ) : activity.isError ? (
          <p className="text-sm text-destructive">The activity could not be loaded.</p>
        ) : activity.entries.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing here yet.</p>
        ) : (
          <ol className="divide-y" aria-label="Activity, newest first">
            {activity.entries.map((entry) => (
              <EntryItem key={entry.id} entry={entry} leadId={leadId} mine={entry.actor?.id === user?.id} mayDeleteAny={role === "management"} />
            ))}
          </ol>
        )}
        {activity.hasNextPage ? (
          <Button variant="outline" onClick={() => void activity.fetchNextPage()} disabled={activity.isFetchingNextPage}>
            {activity.isFetchingNextPage ? "Loading..." : "Load more"}
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
