import { CalendarClock, Mail, Phone, PhoneCall, Timer, UserRound, XCircle } from "lucide-react";
import { APPOINTMENT_STATUSES, type AppointmentStatus } from "../../shared/constants";
import { fullName } from "../../shared/format";
import { formatPhone, phoneHref } from "../../shared/phone";
import type { Appointment } from "../../shared/schemas/responses/appointments";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Spinner } from "../components/ui/spinner";
import { cn } from "../lib/utils";
import { formatSlot, formatTimeInZone, normalizeStatus, STATUS_LABELS, statusBadge } from "./format";

// One appointment on the calendar (spec part 1 §2.7): name, "Scheduled: time", an "Arrived: time" badge once
// arrived, a "Duration: N min" badge once completed with a duration, the status badge, e-mail, phone and the Sales
// Associate; a status dropdown (any status), a call button when there is a phone, and a cancel button unless the
// appointment is cancelled or completed.

export function AppointmentCard({
  appointment,
  timezone,
  busy,
  onStatusChange,
  onCancel,
}: {
  appointment: Appointment;
  timezone: string;
  busy: boolean;
  onStatusChange: (status: AppointmentStatus) => void;
  onCancel: () => void;
}) {
  const status = normalizeStatus(appointment.status);
  const badge = statusBadge(appointment.status);
  const name = fullName(appointment);
  const canCancel = status !== "cancelled" && status !== "completed";

  return (
    <Card
      data-testid="appointment-card"
      data-status={status}
      aria-label={`${name}, ${formatSlot(appointment.time)}`}
      className={cn("overflow-hidden transition-opacity", (status === "cancelled" || status === "no-show") && "bg-card/70", busy && "opacity-70")}
    >
      <div className="flex gap-4 p-4 sm:p-5">
        <div className="hidden w-16 shrink-0 flex-col items-center rounded-lg bg-muted/70 py-2 text-center sm:flex" aria-hidden="true">
          <span className="text-base font-semibold tabular-nums leading-tight">{formatSlot(appointment.time).split(" ")[0]}</span>
          <span className="text-[11px] font-medium uppercase tracking-wide text-muted-foreground">{formatSlot(appointment.time).split(" ")[1]}</span>
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <h3 className={cn("truncate text-base font-semibold leading-snug", status === "cancelled" && "text-muted-foreground line-through decoration-1")}>{name}</h3>
              <p className="truncate text-sm text-muted-foreground">{appointment.title}</p>
            </div>
            <Badge variant={badge.variant} data-testid="appointment-status">
              {badge.label}
            </Badge>
          </div>

          <div className="mt-3 flex flex-wrap items-center gap-2">
            <span className="inline-flex items-center gap-1.5 text-sm font-medium">
              <CalendarClock className="size-4 text-muted-foreground" aria-hidden="true" />
              Scheduled: {formatSlot(appointment.time)}
            </span>
            {appointment.arrivedAt && (
              <Badge variant="warning" data-testid="appointment-arrived">
                Arrived: {formatTimeInZone(appointment.arrivedAt, timezone)}
              </Badge>
            )}
            {status === "completed" && appointment.actualDuration !== null && (
              <Badge variant="success" data-testid="appointment-duration">
                <Timer aria-hidden="true" />
                Duration: {appointment.actualDuration} min
              </Badge>
            )}
          </div>

          <dl className="mt-3 grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-2">
            <div className="flex min-w-0 items-center gap-2">
              <dt className="sr-only">Email</dt>
              <Mail className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <dd className="min-w-0 truncate">
                {appointment.email ? (
                  <a className="hover:underline" href={`mailto:${appointment.email}`}>
                    {appointment.email}
                  </a>
                ) : (
                  <span className="text-muted-foreground">No email</span>
                )}
              </dd>
            </div>
            <div className="flex min-w-0 items-center gap-2">
              <dt className="sr-only">Phone</dt>
              <Phone className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <dd className="truncate tabular-nums">{appointment.phone ? formatPhone(appointment.phone) : <span className="text-muted-foreground">No phone</span>}</dd>
            </div>
            <div className="flex min-w-0 items-center gap-2 sm:col-span-2">
              <dt className="sr-only">Sales Associate</dt>
              <UserRound className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <dd className="truncate">
                <span className="text-muted-foreground">Sales Associate: </span>
                {appointment.assignedToUser ? fullName(appointment.assignedToUser) : "Unassigned"}
              </dd>
            </div>
          </dl>

          <div className="mt-4 flex items-center gap-2 border-t pt-4">
            <Select value={status === "confirmed" ? "scheduled" : status} onValueChange={(v) => onStatusChange(v as AppointmentStatus)} disabled={busy}>
              <SelectTrigger className="h-9 min-w-0 flex-1 sm:w-[10.5rem] sm:flex-none" aria-label={`Status of ${name}'s appointment`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {APPOINTMENT_STATUSES.map((s) => (
                  <SelectItem key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {busy && <Spinner className="text-muted-foreground" />}
            <div className="ml-auto flex shrink-0 gap-2">
              {appointment.phone && (
                <Button asChild variant="outline" size="sm" className="h-9">
                  <a href={phoneHref(appointment.phone) ?? undefined} aria-label={`Call ${name}`}>
                    <PhoneCall />
                    <span className="hidden min-[420px]:inline">Call</span>
                  </a>
                </Button>
              )}
              {canCancel && (
                <Button
                  variant="outline"
                  size="sm"
                  className="h-9 text-destructive hover:bg-destructive/10 hover:text-destructive"
                  onClick={onCancel}
                  disabled={busy}
                  aria-label={`Cancel ${name}'s appointment`}
                >
                  <XCircle />
                  <span className="hidden min-[420px]:inline">Cancel</span>
                </Button>
              )}
            </div>
          </div>
        </div>
      </div>
    </Card>
  );
}
