import { ArrowRight, CalendarDays, Car, CheckCircle2, Mail, MapPin, Phone, SunMedium, type LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { localMoment } from "../../shared/dealership-clock";
import type { AgendaItem } from "../../shared/schemas/responses/tasks";
import type { TaskType } from "../../shared/schemas/task";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { useTodayAgenda } from "../tasks/api";
import { PHONE_QUERY, useMediaQuery } from "../lib/use-media-query";
import { cn } from "../lib/utils";
import type { DashboardSectionProps } from "./sections";
import { useDeferredRead } from "../lib/use-deferred-read";

// Today (issue 30, decision 234): the first lines of My Day on the dashboard, from the same read
// (GET /api/dealerships/{id}/agenda, the dealership's today): what is overdue, then today's follow-ups, appointments
// and test drives in time order, each opening its lead (or its drive). My Day has the rest and the task buttons.

/** The most lines the dashboard shows (fewer on a phone, so Recent Leads starts on the first screen too); "Open My Day" has them all. */
export const TODAY_SHOWN = 5;
export const TODAY_SHOWN_ON_A_PHONE = 3;

const TASK_ICONS: Record<TaskType, LucideIcon> = { call: Phone, email: Mail, visit: MapPin, other: CheckCircle2 };
/** TASK_TYPE_LABELS (shared/schemas/task.ts) without its module, which would bring zod into the first screen's download. */
const TASK_LABELS: Record<TaskType, string> = { call: "Call", email: "E-mail", visit: "Visit", other: "Other" };

function kindOf(item: AgendaItem): { label: string; Icon: LucideIcon } {
  if (item.type === "appointment") return { label: "Appointment", Icon: CalendarDays };
  if (item.type === "test_drive") return { label: "Test drive", Icon: Car };
  const type = item.taskType ?? "other";
  return { label: TASK_LABELS[type], Icon: TASK_ICONS[type] };
}

/** "1:00 PM" on the dealership's clock; with its date ("Nov 20, 8:00 AM") for one overdue from an earlier day. */
function timeIn(iso: string, timezone: string, withDate: boolean): string {
  const options: Intl.DateTimeFormatOptions = withDate ? { month: "short", day: "numeric", hour: "numeric", minute: "2-digit" } : { hour: "numeric", minute: "2-digit" };
  try {
    return new Intl.DateTimeFormat("en-US", { ...options, timeZone: timezone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat("en-US", options).format(new Date(iso));
  }
}

/** What is still to do: open tasks, and visits and drives not cancelled or missed. */
const stillToDo = (item: AgendaItem) => (item.type === "task" ? item.status === "open" : !["cancelled", "no-show", "no_show", "completed"].includes(item.status));

function AgendaRow({ item, timezone, day }: { item: AgendaItem; timezone: string; day: string | undefined }) {
  const { label, Icon } = kindOf(item);
  const to = item.type === "test_drive" ? `/test-drives/${item.id}` : item.leadId ? `/leads/detail/${item.leadId}` : "/my-day";
  const detail = item.type === "task" ? (item.note ?? "") : item.title;
  return (
    <li>
      <Link
        to={to}
        data-testid="today-item"
        data-kind={item.type}
        data-overdue={item.overdue || undefined}
        className="flex min-w-0 items-start gap-3 rounded-lg border p-3 transition-colors hover:bg-muted/60 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <Icon className="size-[18px]" aria-hidden="true" />
        </span>
        <span className="min-w-0 flex-1">
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
            <time dateTime={item.at} className={cn("font-semibold tabular-nums", item.overdue && "text-destructive")}>
              {timeIn(item.at, timezone, item.overdue && localMoment(timezone, new Date(item.at)).date !== day)}
            </time>
            <span className="text-muted-foreground">{label}</span>
            {item.overdue && <Badge variant="destructive">Overdue</Badge>}
          </span>
          <span className="mt-0.5 block break-words font-medium leading-snug">{item.name}</span>
          {detail && <span className="line-clamp-2 break-words text-sm text-muted-foreground">{detail}</span>}
        </span>
      </Link>
    </li>
  );
}

export function TodayAgenda({ dealership }: DashboardSectionProps) {
  const agenda = useDeferredRead(useTodayAgenda(dealership.id));
  const limit = useMediaQuery(PHONE_QUERY) ? TODAY_SHOWN_ON_A_PHONE : TODAY_SHOWN;
  const items = (agenda.data?.items ?? []).filter(stillToDo);
  const overdue = items.filter((i) => i.overdue).length;
  const shown = items.slice(0, limit);
  const timezone = agenda.data?.timezone ?? dealership.timezone;

  return (
    <Card className="h-full" data-testid="today-agenda">
      <CardHeader className="flex-row items-start justify-between gap-3 space-y-0">
        <div className="min-w-0">
          <CardTitle>Today</CardTitle>
          <CardDescription>
            {agenda.data && items.length > 0
              ? `${items.length} to do${overdue > 0 ? `, ${overdue} overdue` : ""}`
              : "Your follow-ups, appointments and test drives"}
          </CardDescription>
        </div>
        <Button asChild variant="ghost" size="sm" className="-mr-2 shrink-0 text-primary">
          <Link to="/my-day">
            Open My Day
            <ArrowRight />
          </Link>
        </Button>
      </CardHeader>
      <CardContent>
        {agenda.isPending ? (
          <ul className="grid gap-2" aria-busy="true" aria-label="Loading today's agenda">
            {[0, 1, 2].map((i) => (
              <li key={i} className="rounded-lg border p-3">
                <Skeleton className="h-4 w-32" />
                <Skeleton className="mt-2 h-4 w-48" />
              </li>
            ))}
          </ul>
        ) : agenda.isError ? (
          <p className="py-6 text-center text-sm text-muted-foreground">Today&rsquo;s agenda could not be loaded.</p>
        ) : shown.length === 0 ? (
          <p className="flex items-center gap-2 rounded-lg border border-dashed p-3 text-sm text-muted-foreground" data-testid="today-empty">
            <SunMedium className="size-4 shrink-0" aria-hidden="true" />
            Nothing left for today.
          </p>
        ) : (
          <ul className="grid gap-2" aria-label="Today's agenda">
            {shown.map((item) => (
              <AgendaRow key={`${item.type}:${item.id}`} item={item} timezone={timezone} day={agenda.data?.date} />
            ))}
          </ul>
        )}
        {items.length > limit && (
          <p className="mt-3 text-sm text-muted-foreground">
            <Link to="/my-day" className="font-medium text-primary hover:underline">
              {items.length - limit} more in My Day
            </Link>
          </p>
        )}
      </CardContent>
    </Card>
  );
}
