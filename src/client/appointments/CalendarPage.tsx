import { CalendarDays, CalendarPlus, RotateCcw, SearchX } from "lucide-react";
import { useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { APPOINTMENT_SKELETONS, type AppointmentStatus } from "../../shared/constants";
import { addDays, isIsoDate, localToday } from "../../shared/dealership-clock";
import { can } from "../../shared/permissions";
import type { Appointment } from "../../shared/schemas/responses/appointments";
import type { AgendaItem } from "../../shared/schemas/responses/tasks";
import { EmptyState, PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Calendar } from "../components/ui/calendar";
import { Card } from "../components/ui/card";
import { SearchInput } from "../components/ui/search-input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { useCurrentDealership, useRole } from "../dealerships/dealership-context";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useAppointmentDays, useDayAppointments, useSetAppointmentStatus } from "./api";
import { CancelAppointmentDialog } from "./CancelAppointmentDialog";
import { AppointmentCard } from "./AppointmentCard";
import { dateFromIso, isoFromDate, longDate, matchesSearch, normalizeStatus } from "./format";
import { NoDealership } from "../dealerships/NoDealership";
import { SubscribeDialog } from "./SubscribeDialog";
import { useAgenda } from "../tasks/api";
import { TestDriveCard } from "./TestDriveCard";

// /calendar (spec part 1 §2.7): a month picker on the left, the selected day's appointments on the right, sorted by
// time, with a status filter, a search, a day summary and a link to schedule. ?date=YYYY-MM-DD selects a day
// (links from e-mails and calendar apps land on it); otherwise today on the dealership's clock.
// The day is the agenda's (issue 27, decision 230): GET /api/dealerships/{id}/agenda?date=&scope=, the call My Day
// reads, says what is on the day and in which order: appointments, and test drives beside them with their own badge
// (tasks stay on My Day). Everyone's for front desk and management, the rep's own for sales, as the appointments
// themselves are seen. An appointment's card takes its details (e-mail, phone, arrival, duration) from the day's
// appointments, which its status menu updates.

/** A drive's status read as an appointment's, for the status filter ("out" matches only All Appointments). */
const DRIVE_AS_APPOINTMENT: Record<string, AppointmentStatus | undefined> = { scheduled: "scheduled", completed: "completed", cancelled: "cancelled", no_show: "no-show" };

function driveMatches(item: AgendaItem, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === "" || item.name.toLowerCase().includes(q) || item.title.toLowerCase().includes(q);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const FILTERS: Array<{ value: "all" | AppointmentStatus; label: string }> = [
  { value: "all", label: "All Appointments" },
  { value: "scheduled", label: "Scheduled" },
  { value: "arrived", label: "Arrived" },
  { value: "completed", label: "Completed" },
  { value: "cancelled", label: "Cancelled" },
  { value: "no-show", label: "No Show" },
];

const SUMMARY: Array<{ status: AppointmentStatus; label: string; tone: string }> = [
  { status: "scheduled", label: "Scheduled", tone: "text-primary" },
  { status: "arrived", label: "Arrived", tone: "text-warning-foreground" },
  { status: "completed", label: "Completed", tone: "text-success" },
  { status: "cancelled", label: "Cancelled", tone: "text-destructive" },
];

function firstOfMonth(date: string): Date {
  const d = dateFromIso(date);
  return new Date(d.getFullYear(), d.getMonth(), 1);
}

export function CalendarPage() {
  const { dealership, dealerships, isLoading } = useCurrentDealership();
  if (!isLoading && dealerships.length === 0) return <NoDealership />;
  if (!dealership) return <CalendarSkeleton />;
  return <CalendarView key={dealership.id} dealershipId={dealership.id} dealershipName={dealership.name} timezone={dealership.timezone} />;
}

function CalendarSkeleton() {
  return (
    <div className="mx-auto max-w-7xl" aria-busy="true">
      <Skeleton className="h-8 w-40" />
      <Skeleton className="mt-2 h-4 w-64" />
      <div className="mt-8 grid gap-6 lg:grid-cols-[auto_1fr]">
        <Skeleton className="h-80 w-full rounded-xl lg:w-80" />
        <Skeleton className="h-80 rounded-xl" />
      </div>
    </div>
  );
}

function CalendarView({ dealershipId, dealershipName, timezone }: { dealershipId: string; dealershipName: string; timezone: string }) {
  const [params, setParams] = useSearchParams();
  const today = localToday(timezone);
  const requested = params.get("date");
  const selected = requested && isIsoDate(requested) ? requested : today;
  const [month, setMonth] = useState<Date>(() => firstOfMonth(selected));
  const [filter, setFilter] = useState<"all" | AppointmentStatus>("all");
  const [search, setSearch] = useState("");
  const { role } = useRole();
  const scope = can(role, "seeAllClaimedLeads") ? "all" : "mine";

  // The visible grid runs from up to 6 days before the 1st to up to 13 days after the month's end.
  const monthStart = isoFromDate(month);
  const from = addDays(monthStart, -7);
  const to = addDays(isoFromDate(new Date(month.getFullYear(), month.getMonth() + 1, 0)), 14);
  const days = useAppointmentDays(dealershipId, from, to);
  const agenda = useAgenda(dealershipId, selected, scope);
  const details = useDayAppointments(dealershipId, selected, selected === today);
  const setStatus = useSetAppointmentStatus(dealershipId);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState<Appointment | null>(null);

  const marked = useMemo(() => (days.data ?? []).filter((d) => d.count > 0).map((d) => dateFromIso(d.date)), [days.data]);
  // The agenda's appointments and drives, in its order; an appointment with its details once they are here.
  const byId = useMemo(() => new Map((details.data ?? []).map((a) => [a.id, a])), [details.data]);
  const entries = useMemo(
    () =>
      (agenda.data?.items ?? []).flatMap((item): Array<{ item: AgendaItem; appointment: Appointment | null }> => {
        if (item.type === "test_drive") return [{ item, appointment: null }];
        if (item.type !== "appointment") return [];
        const appointment = byId.get(item.id);
        return appointment ? [{ item, appointment }] : [];
      }),
    [agenda.data, byId],
  );
  const all = entries.flatMap((e) => (e.appointment ? [e.appointment] : []));
  const driveCount = entries.length - all.length;
  const shown = entries.filter(({ item, appointment }) =>
    appointment
      ? (filter === "all" || normalizeStatus(appointment.status) === filter) && matchesSearch(appointment, search)
      : (filter === "all" || DRIVE_AS_APPOINTMENT[item.status] === filter) && driveMatches(item, search),
  );
  const counts = Object.fromEntries(SUMMARY.map((s) => [s.status, all.filter((a) => normalizeStatus(a.status) === s.status).length]));
  const day = { isPending: agenda.isPending || details.isPending, isError: agenda.isError || details.isError, refetch: () => Promise.all([agenda.refetch(), details.refetch()]) };
  const narrowed = search.trim() !== "" || filter !== "all";

  const scheduleLink = selected > today ? `/appointments/new?date=${selected}` : "/appointments/new";

  function select(date: string) {
    setParams(date === today ? {} : { date }, { replace: true });
  }

  function change(appointment: Appointment, status: AppointmentStatus) {
    if (status === appointment.status) return;
    setBusyId(appointment.id);
    const cancelling = status === "cancelled";
    setStatus.mutate(
      { appointment, status },
      {
        onSuccess: () =>
          toast(
            cancelling
              ? { title: "Appointment Cancelled", description: `${appointment.firstName} ${appointment.lastName}'s appointment was cancelled.`, variant: "success" }
              : { title: "Status Updated", description: "Appointment status updated successfully", variant: "success" },
          ),
        onError: () =>
          toast({
            title: "Error",
            description: cancelling ? "Failed to cancel appointment. Please try again." : "Failed to update appointment status. Please try again.",
            variant: "destructive",
          }),
        onSettled: () => setBusyId(null),
      },
    );
  }

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title="Calendar"
        description={`Appointments at ${dealershipName}`}
        actions={
          <>
            <SubscribeDialog dealershipId={dealershipId} dealershipName={dealershipName} />
            <Button asChild>
              <Link to={scheduleLink}>
                <CalendarPlus />
                Schedule Appointment
              </Link>
            </Button>
          </>
        }
      />

      <div className="grid items-start gap-6 lg:grid-cols-[auto_minmax(0,1fr)]">
        <div className="grid gap-6 lg:sticky lg:top-20">
          <Card className="flex flex-col items-center p-3 sm:p-4">
            <Calendar
              mode="single"
              required
              selected={dateFromIso(selected)}
              onSelect={(date: Date | undefined) => date && select(isoFromDate(date))}
              month={month}
              onMonthChange={setMonth}
              today={dateFromIso(today)}
              modifiers={{ marked }}
              fixedWeeks
              aria-label="Choose a day"
            />
            <Button
              variant="ghost"
              size="sm"
              className="mt-1 text-muted-foreground"
              disabled={selected === today && month.getTime() === firstOfMonth(today).getTime()}
              onClick={() => {
                select(today);
                setMonth(firstOfMonth(today));
              }}
            >
              <RotateCcw />
              Today
            </Button>
          </Card>

          <Card className="p-4 sm:p-5" aria-label="Day summary" role="region">
            <h2 className="text-sm font-semibold">Day summary</h2>
            <p className="text-xs text-muted-foreground">{longDate(selected)}</p>
            <dl className="mt-3 grid grid-cols-4 gap-2 lg:grid-cols-2">
              {SUMMARY.map((s) => (
                <div key={s.status} className="rounded-lg bg-muted/60 px-2 py-2.5 text-center lg:px-3 lg:text-left" data-testid={`summary-${s.status}`}>
                  <dd className={cn("text-xl font-semibold tabular-nums leading-none", s.tone)}>{day.isPending ? "–" : counts[s.status]}</dd>
                  <dt className="mt-1.5 text-[11px] font-medium text-muted-foreground sm:text-xs">{s.label}</dt>
                </div>
              ))}
            </dl>
          </Card>
        </div>

        <section aria-labelledby="day-heading" className="min-w-0">
          <div className="mb-4 flex flex-col gap-3">
            <div className="flex items-baseline justify-between gap-3">
              <h2 id="day-heading" className="text-lg font-semibold tracking-tight">
                {selected === today ? "Today · " : ""}
                {longDate(selected)}
              </h2>
              {!day.isPending && (
                <span className="shrink-0 text-sm text-muted-foreground" data-testid="day-count">
                  {plural(all.length, "appointment", "appointments")}
                  {driveCount > 0 && ` · ${plural(driveCount, "test drive", "test drives")}`}
                </span>
              )}
            </div>
            <div className="flex flex-col gap-2 sm:flex-row">
              <SearchInput value={search} onValueChange={setSearch} placeholder="Search appointments by name, email, or phone..." label="Search appointments" />
              <Select value={filter} onValueChange={(v) => setFilter(v as typeof filter)}>
                <SelectTrigger className="sm:w-52" aria-label="Filter by status">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {FILTERS.map((f) => (
                    <SelectItem key={f.value} value={f.value}>
                      {f.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          </div>

          {day.isPending ? (
            <div className="grid gap-3" role="status" aria-busy="true" aria-label="Loading appointments">
              {Array.from({ length: APPOINTMENT_SKELETONS }, (_, i) => (
                <Skeleton key={i} className="h-44 rounded-xl" data-testid="appointment-skeleton" />
              ))}
            </div>
          ) : day.isError ? (
            <Card>
              <EmptyState icon={<CalendarDays />} title="Couldn't load appointments" action={<Button variant="outline" onClick={() => void day.refetch()}>Try again</Button>}>
                Check your connection and try again.
              </EmptyState>
            </Card>
          ) : shown.length === 0 ? (
            <Card>
              {narrowed ? (
                <EmptyState
                  icon={<SearchX />}
                  title="No appointments found"
                  action={
                    <Button
                      variant="outline"
                      onClick={() => {
                        setSearch("");
                        setFilter("all");
                      }}
                    >
                      Clear search
                    </Button>
                  }
                >
                  No appointments match your search criteria. Try adjusting your search terms or clear the search to see all appointments for this day.
                </EmptyState>
              ) : (
                <EmptyState
                  icon={<CalendarDays />}
                  title="No appointments"
                  action={
                    selected >= today ? (
                      <Button asChild variant="outline">
                        <Link to={scheduleLink}>
                          <CalendarPlus />
                          Schedule Appointment
                        </Link>
                      </Button>
                    ) : undefined
                  }
                >
                  No appointments scheduled for this day
                </EmptyState>
              )}
            </Card>
          ) : (
            <ul className="grid gap-3" aria-label="Appointments and test drives">
              {shown.map(({ item, appointment: a }) => (
                <li key={`${item.type}:${item.id}`}>
                  {a ? (
                    <AppointmentCard
                      appointment={a}
                      timezone={timezone}
                      busy={busyId === a.id}
                      onStatusChange={(status) => change(a, status)}
                      onCancel={() => setConfirmingCancel(a)}
                    />
                  ) : (
                    <TestDriveCard item={item} timezone={timezone} />
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <CancelAppointmentDialog
        appointment={confirmingCancel}
        onClose={() => setConfirmingCancel(null)}
        onConfirm={(appointment) => {
          setConfirmingCancel(null);
          change(appointment, "cancelled");
        }}
      />
    </div>
  );
}
