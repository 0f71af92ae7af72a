import { CalendarClock, CalendarDays, Car, Check, CheckCircle2, Clock, ExternalLink, Mail, MapPin, Phone, SunMedium, type LucideIcon } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { addDays, localToday } from "../../shared/dealership-clock";
import type { AgendaItem, Task } from "../../shared/schemas/responses/tasks";
import { TASK_TYPE_LABELS, type TaskType, type TaskUpdate } from "../../shared/schemas/task";
import { can } from "../../shared/permissions";
import { EmptyState, PageHeader } from "../components/page-header";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { Segmented } from "../components/ui/segmented";
import { Skeleton } from "../components/ui/skeleton";
import { useCurrentDealership, useRole } from "../dealerships/dealership-context";
import { NoDealership } from "../dealerships/NoDealership";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useAgenda, useUpcomingTasks, useUpdateTask } from "./api";

// My Day (issue 27): a rep's overdue, today's and upcoming follow-ups with today's appointments and test drives, in
// time order, from GET /api/dealerships/{id}/agenda (today) and .../tasks?due=upcoming. Each task is done, snoozed
// (later today, tomorrow) or its lead opened with one tap, on a phone too: the four actions are a 2×2 grid of
// 44 px buttons there, one row on wider screens.

const TASK_ICONS: Record<TaskType, LucideIcon> = { call: Phone, email: Mail, visit: MapPin, other: CheckCircle2 };
/** "Later today" moves a task this far ahead, to the next quarter hour. */
const LATER_MS = 2 * 60 * 60 * 1000;
const QUARTER_MS = 15 * 60 * 1000;
/** "Tomorrow" is the next day at this hour on the dealership's clock. */
const TOMORROW_AT = "09:00";

function timeIn(iso: string, timezone: string, withDate: boolean): string {
  const date = new Date(iso);
  const year = date.getUTCFullYear() !== new Date().getUTCFullYear() ? { year: "numeric" as const } : {};
  const options: Intl.DateTimeFormatOptions = withDate
    ? { month: "short", day: "numeric", ...year, hour: "numeric", minute: "2-digit" }
    : { hour: "numeric", minute: "2-digit" };
  return new Intl.DateTimeFormat("en-US", { ...options, timeZone: timezone }).format(date);
}

function laterToday(now = Date.now()): string {
  return new Date(Math.ceil((now + LATER_MS) / QUARTER_MS) * QUARTER_MS).toISOString();
}

interface Line {
  key: string;
  id: string;
  kind: AgendaItem["type"];
  taskId?: string;
  taskType?: TaskType | null;
  at: string;
  leadId: string | null;
  name: string;
  title: string;
  /** What the card says under the name: a task's note (its type is the badge), else the title. */
  detail: string;
  overdue: boolean;
  status: string;
}

function fromAgenda(item: AgendaItem): Line {
  return { key: `${item.type}:${item.id}`, id: item.id, kind: item.type, taskId: item.type === "task" ? item.id : undefined, taskType: item.taskType, at: item.at, leadId: item.leadId, name: item.name, title: item.title, detail: item.type === "task" ? (item.note ?? "") : item.title, overdue: item.overdue, status: item.status };
}

function fromTask(task: Task): Line {
  const title = task.note ? `${TASK_TYPE_LABELS[task.type]}: ${task.note}` : TASK_TYPE_LABELS[task.type];
  return { key: `task:${task.id}`, id: task.id, kind: "task", taskId: task.id, taskType: task.type, at: task.dueAt, leadId: task.leadId, name: task.leadName, title, detail: task.note ?? "", overdue: false, status: task.status };
}

function KindBadge({ line }: { line: Line }) {
  if (line.kind === "appointment") return <Badge variant="primary"><CalendarDays aria-hidden="true" />Appointment</Badge>;
  if (line.kind === "test_drive") return <Badge variant="secondary"><Car aria-hidden="true" />Test drive</Badge>;
  const Icon = TASK_ICONS[line.taskType ?? "other"];
  return <Badge variant="outline"><Icon aria-hidden="true" />{TASK_TYPE_LABELS[line.taskType ?? "other"]}</Badge>;
}

function AgendaLine({
  line,
  timezone,
  withDate,
  busy,
  onChange,
  snooze,
}: {
  line: Line;
  timezone: string;
  withDate: boolean;
  busy: boolean;
  onChange: (taskId: string, change: TaskUpdate, done: string) => void;
  snooze: boolean;
}) {
  const open = line.kind === "task" && line.status === "open";
  const tomorrow = `${addDays(localToday(timezone), 1)}T${TOMORROW_AT}`;
  const about = `${line.title}, ${line.name}`;
  return (
    <li>
      <Card data-testid="agenda-item" data-kind={line.kind} data-overdue={line.overdue || undefined} className={cn("p-3 sm:p-4", busy && "opacity-70", !open && line.kind === "task" && "bg-card/70")}>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
          <span className={cn("inline-flex items-center gap-1.5 text-sm font-semibold tabular-nums", line.overdue && "text-destructive")}>
            <Clock className="size-4" aria-hidden="true" />
            <time dateTime={line.at}>{timeIn(line.at, timezone, withDate)}</time>
          </span>
          <KindBadge line={line} />
          {line.overdue && <Badge variant="destructive">Overdue</Badge>}
          {line.kind === "task" && line.status === "done" && <Badge variant="success">Done</Badge>}
        </div>
        <h3 className="mt-2 break-words text-base font-semibold leading-snug">{line.name}</h3>
        {line.detail && <p className="break-words text-sm text-muted-foreground">{line.detail}</p>}
        {(open || line.leadId || line.kind === "test_drive") && (
          <div className={cn("mt-3 grid gap-2", open && snooze ? "grid-cols-2 sm:flex sm:flex-wrap" : "grid-cols-2 sm:flex")}>
            {open && line.taskId && (
              <>
                <Button variant="success" className="h-11 sm:h-9" disabled={busy} aria-label={`Done: ${about}`} onClick={() => onChange(line.taskId!, { status: "done" }, "Task done")}>
                  <Check aria-hidden="true" />
                  Done
                </Button>
                {snooze && (
                  <>
                    <Button variant="outline" className="h-11 sm:h-9" disabled={busy} aria-label={`Later today: ${about}`} onClick={() => onChange(line.taskId!, { dueAt: laterToday() }, "Snoozed until later today")}>
                      <SunMedium aria-hidden="true" />
                      Later today
                    </Button>
                    <Button variant="outline" className="h-11 sm:h-9" disabled={busy} aria-label={`Tomorrow: ${about}`} onClick={() => onChange(line.taskId!, { dueAt: tomorrow }, "Snoozed until tomorrow")}>
                      <CalendarClock aria-hidden="true" />
                      Tomorrow
                    </Button>
                  </>
                )}
              </>
            )}
            {line.kind === "test_drive" && (
              <Button asChild variant="outline" className="h-11 sm:h-9">
                <Link to={`/test-drives/${line.id}`} aria-label={`Open test drive: ${line.name}`}>
                  <Car aria-hidden="true" />
                  Open test drive
                </Link>
              </Button>
            )}
            {line.leadId && (
              <Button asChild variant="outline" className="h-11 sm:h-9">
                <Link to={`/leads/detail/${line.leadId}`} aria-label={`Open lead: ${line.name}`}>
                  <ExternalLink aria-hidden="true" />
                  Open lead
                </Link>
              </Button>
            )}
          </div>
        )}
      </Card>
    </li>
  );
}

function Section({ title, count, children, empty }: { title: string; count: number; children: React.ReactNode; empty: string }) {
  const id = `my-day-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="mt-6 first:mt-0">
      <h2 id={id} className="mb-3 flex items-center gap-2 text-lg font-semibold">
        {title}
        <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground">{count}</span>
      </h2>
      {count === 0 ? <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">{empty}</p> : <ul className="grid gap-3">{children}</ul>}
    </section>
  );
}

export function MyDayPage() {
  const { dealership, dealerships, isLoading } = useCurrentDealership();
  const { role } = useRole();
  const [scope, setScope] = useState<"mine" | "all">("mine");
  const timezone = dealership?.timezone ?? "America/Toronto";
  const today = localToday(timezone);
  const agenda = useAgenda(dealership?.id, today, scope);
  const upcoming = useUpcomingTasks(dealership?.id);
  const update = useUpdateTask(dealership?.id ?? "");
  const [busyId, setBusyId] = useState<string | null>(null);

  if (!isLoading && !dealership && dealerships.length === 0) return <NoDealership />;

  const change = (taskId: string, body: TaskUpdate, done: string) => {
    setBusyId(taskId);
    update.mutate(
      { id: taskId, change: body },
      {
        onSuccess: () => toast({ title: done, variant: "success" }),
        onError: (error) => toast({ title: "The task was not changed", description: serverMessage(error, "Try again."), variant: "destructive" }),
        onSettled: () => setBusyId(null),
      },
    );
  };

  const lines = (agenda.data?.items ?? []).map(fromAgenda);
  const overdue = lines.filter((l) => l.overdue);
  const todays = lines.filter((l) => !l.overdue);
  const later = (upcoming.data ?? []).map(fromTask);
  const loading = !dealership || agenda.isPending;

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="My Day"
        description={dealership ? new Intl.DateTimeFormat("en-US", { weekday: "long", month: "long", day: "numeric", timeZone: timezone }).format(new Date()) : undefined}
        actions={
          can(role, "seeAllClaimedLeads") ? (
            <Segmented label="Whose agenda" value={scope} onChange={setScope} options={[{ value: "mine", label: "Mine" }, { value: "all", label: "Everyone" }]} className="w-56" />
          ) : undefined
        }
      />
      {loading ? (
        <div role="status" aria-busy="true" aria-label="Loading My Day" className="grid gap-3">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} className="h-28 rounded-xl" />
          ))}
        </div>
      ) : agenda.isError ? (
        <Card>
          <EmptyState title="My Day could not be loaded" action={<Button onClick={() => void agenda.refetch()}>Try again</Button>}>
            <p>Check your connection and try again.</p>
          </EmptyState>
        </Card>
      ) : (
        <>
          <Section title="Overdue" count={overdue.length} empty="Nothing overdue.">
            {overdue.map((line) => (
              <AgendaLine key={line.key} line={line} timezone={timezone} withDate busy={busyId === line.taskId} onChange={change} snooze />
            ))}
          </Section>
          <Section title="Today" count={todays.length} empty="No tasks, appointments or test drives today.">
            {todays.map((line) => (
              <AgendaLine key={line.key} line={line} timezone={timezone} withDate={false} busy={busyId === line.taskId} onChange={change} snooze />
            ))}
          </Section>
          {scope === "mine" && (
            <Section title="Upcoming" count={later.length} empty="No tasks after today.">
              {later.map((line) => (
                <AgendaLine key={line.key} line={line} timezone={timezone} withDate busy={busyId === line.taskId} onChange={change} snooze={false} />
              ))}
            </Section>
          )}
        </>
      )}
    </div>
  );
}
