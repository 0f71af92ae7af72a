import { useQuery } from "@tanstack/react-query";
import { CalendarIcon, CheckCircle2, UserRound } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Controller } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { slotsOn, weekdayOf, WEEKDAY_LABELS, type BusinessHours } from "../../shared/business-hours";
import { DEFAULT_APPOINTMENT_DURATION, SCHEDULED_REDIRECT_DELAY_MS } from "../../shared/constants";
import { isIsoDate, localMoment } from "../../shared/dealership-clock";
import { fullName } from "../../shared/format";
import { formatPhone } from "../../shared/phone";
import { appointmentInputSchema, type AppointmentInput } from "../../shared/schemas/appointment";
import type { Lead } from "../../shared/schemas/lead";
import { PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Calendar } from "../components/ui/calendar";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { PhoneInput } from "../components/ui/phone-input";
import { Popover, PopoverContent, PopoverTrigger } from "../components/ui/popover";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { Textarea } from "../components/ui/textarea";
import { useCurrentDealership } from "../dealerships/dealership-context";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useCreateAppointment } from "./api";
import { NoDealership } from "../dealerships/NoDealership";
import { SlotClashNote } from "./SlotClashNote";
import { dateFromIso, formatSlot, isoFromDate, longDate } from "./format";

// /appointments/new (spec part 1 §2.8): "Schedule Appointment". ?leadId= prefills the customer from the lead;
// ?date= preselects a day (the calendar passes its selected day).
// Dates before today (the dealership's today) are disabled, times come from the fixed 18 slots, the phone formats as
// it is typed. Submitting → "Scheduled!" → /calendar on the appointment's day after 1200 ms (part 1 §9); after a
// failure the submit lock is released after 300 ms.

const SUBMIT_LOCK_RELEASE_MS = 300;

export function ScheduleAppointmentPage() {
  const { dealership, dealerships, isLoading } = useCurrentDealership();
  if (!isLoading && dealerships.length === 0) return <NoDealership />;
  if (!dealership) {
    return (
      <div className="mx-auto max-w-3xl" aria-busy="true">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="mt-8 h-[32rem] rounded-xl" />
      </div>
    );
  }
  return <ScheduleForm key={dealership.id} dealershipId={dealership.id} timezone={dealership.timezone} businessHours={dealership.businessHours} />;
}

function ScheduleForm({ dealershipId, timezone, businessHours }: { dealershipId: string; timezone: string; businessHours: BusinessHours }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const leadId = params.get("leadId") ?? undefined;
  // The dealership's clock; a slot of today that has begun is refused here as by the server (issue 29).
  const { date: today, time: now } = localMoment(timezone);
  // ?date= (from the calendar's selected day) preselects that day when it is not in the past.
  const requestedDate = params.get("date");
  const initialDate = requestedDate && isIsoDate(requestedDate) && requestedDate >= today ? requestedDate : today;
  // The dealership's business hours decide the slots offered, as they decide those the server accepts (decision 191).
  const schema = useMemo(() => appointmentInputSchema(today, now, businessHours), [today, now, businessHours]);
  const form = useZodForm(schema, {
    defaultValues: { title: "", firstName: "", lastName: "", email: "", phone: "", description: "", date: initialDate, time: "", duration: DEFAULT_APPOINTMENT_DURATION, leadId: leadId ?? null },
  });
  const create = useCreateAppointment(dealershipId);
  const [phase, setPhase] = useState<"idle" | "submitting" | "scheduled">("idle");
  const [dateOpen, setDateOpen] = useState(false);
  const redirectTimer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirectTimer.current), []);

  const lead = useQuery<Lead>({ queryKey: ["/api/leads", leadId], enabled: Boolean(leadId), retry: false });
  const prefilled = useRef(false);
  useEffect(() => {
    if (!lead.data || prefilled.current) return;
    prefilled.current = true;
    const dirty = form.formState.dirtyFields;
    const fill = (name: "firstName" | "lastName" | "email" | "phone", value: string | null) => {
      if (!dirty[name] && value) form.setValue(name, name === "phone" ? formatPhone(value) : value, { shouldValidate: false });
    };
    fill("firstName", lead.data.firstName);
    fill("lastName", lead.data.lastName);
    fill("email", lead.data.email);
    fill("phone", lead.data.phone);
  }, [lead.data, form]);

  const errors = form.formState.errors;
  // The chosen day's slots, less those of today that have begun (the server refuses them too).
  const chosenDate = form.watch("date");
  const chosenTime = form.watch("time");
  const chosenMinutes = Number(form.watch("duration")) || DEFAULT_APPOINTMENT_DURATION;
  const slots = chosenDate && isIsoDate(chosenDate) ? slotsOn(chosenDate, businessHours).filter((slot) => chosenDate !== today || slot >= now) : [];
  const locked = phase !== "idle";

  function onValid(values: AppointmentInput) {
    if (locked) return;
    setPhase("submitting");
    create.mutate(
      { ...values, leadId: lead.data ? lead.data.id : null },
      {
        onSuccess: (appointment) => {
          setPhase("scheduled");
          toast({ title: "Appointment created successfully", description: `${appointment.title} on ${longDate(appointment.date)} at ${formatSlot(appointment.time)}.`, variant: "success" });
          redirectTimer.current = window.setTimeout(() => {
            navigate(`/calendar?date=${appointment.date}`);
            window.scrollTo({ top: 0 }); // the form was scrolled to its button; the calendar starts at its top
          }, SCHEDULED_REDIRECT_DELAY_MS);
        },
        onError: (error) => {
          applyServerFieldErrors(form, error);
          toast({ title: "Failed to create appointment", description: serverMessage(error, "Failed to schedule appointment. Please try again."), variant: "destructive" });
          window.setTimeout(() => setPhase("idle"), SUBMIT_LOCK_RELEASE_MS);
        },
      },
    );
  }

  const backTo = lead.data ? `/leads/detail/${lead.data.id}` : "/calendar";

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Schedule Appointment" description="Book a visit with a customer. It goes on your calendar right away." />
      <Card>
        <CardHeader className="border-b">
          <CardTitle>Appointment Details</CardTitle>
          <CardDescription>Fields marked * are required.</CardDescription>
          {leadId && (
            <div className="mt-2 flex items-center gap-2 rounded-lg bg-accent/70 px-3 py-2 text-sm text-accent-foreground" data-testid="lead-prefill">
              <UserRound className="size-4 shrink-0" aria-hidden="true" />
              {lead.isPending ? (
                <span className="flex items-center gap-2">
                  <Spinner /> Loading the customer…
                </span>
              ) : lead.data ? (
                <span>
                  For lead <span className="font-semibold">{fullName(lead.data)}</span> — the customer's details are filled in.
                </span>
              ) : (
                <span>That lead could not be found; enter the customer's details below.</span>
              )}
            </div>
          )}
        </CardHeader>
        <CardContent className="pt-5 sm:pt-6">
          <form id="schedule-appointment" noValidate onSubmit={(e) => void form.handleSubmit(onValid)(e)} className="grid gap-5">
            <FormField label="Title" required error={errors.title?.message}>
              <Input id="appointment-title" placeholder="e.g. Test drive, Trade-in appraisal" autoComplete="off" {...form.register("title")} />
            </FormField>
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField label="First name" required error={errors.firstName?.message}>
                <Input id="appointment-first-name" autoComplete="off" {...form.register("firstName")} />
              </FormField>
              <FormField label="Last name" required error={errors.lastName?.message}>
                <Input id="appointment-last-name" autoComplete="off" {...form.register("lastName")} />
              </FormField>
            </div>
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField
                label={
                  <>
                    Email <span className="font-normal text-muted-foreground">(optional)</span>
                  </>
                }
                error={errors.email?.message}
              >
                <Input id="appointment-email" type="email" inputMode="email" autoComplete="off" placeholder="customer@example.com" {...form.register("email")} />
              </FormField>
              <FormField label="Phone" error={errors.phone?.message}>
                <PhoneInput id="appointment-phone" autoComplete="off" registration={form.register("phone")} />
              </FormField>
            </div>
            <div className="grid gap-5 sm:grid-cols-2">
              <Controller
                control={form.control}
                name="date"
                render={({ field }) => (
                  <FormField label="Date" required error={errors.date?.message}>
                    <Popover open={dateOpen} onOpenChange={setDateOpen}>
                      <PopoverTrigger asChild>
                        <Button
                          id="appointment-date"
                          variant="outline"
                          className={cn("w-full justify-start px-3 font-normal", !field.value && "text-muted-foreground")}
                          aria-label={field.value ? `Date: ${longDate(field.value)}` : "Pick a date"}
                        >
                          <CalendarIcon className="text-muted-foreground" />
                          {field.value ? longDate(field.value) : "Pick a date"}
                        </Button>
                      </PopoverTrigger>
                      <PopoverContent className="w-auto p-3" align="start">
                        <Calendar
                          mode="single"
                          required
                          selected={field.value ? dateFromIso(field.value) : undefined}
                          defaultMonth={dateFromIso(field.value || today)}
                          today={dateFromIso(today)}
                          disabled={[{ before: dateFromIso(today) }, (day: Date) => businessHours[weekdayOf(isoFromDate(day))] === null]}
                          onSelect={(date: Date | undefined) => {
                            if (!date) return;
                            field.onChange(isoFromDate(date));
                            setDateOpen(false);
                          }}
                        />
                      </PopoverContent>
                    </Popover>
                  </FormField>
                )}
              />
              <Controller
                control={form.control}
                name="time"
                render={({ field }) => (
                  <FormField label="Time" required error={errors.time?.message} hint={slots.length === 0 && chosenDate ? `Closed on ${WEEKDAY_LABELS[weekdayOf(chosenDate)]}s: choose another date.` : undefined}>
                    <Select value={field.value || undefined} onValueChange={field.onChange} disabled={slots.length === 0}>
                      <SelectTrigger id="appointment-time" aria-label="Time">
                        <SelectValue placeholder={slots.length === 0 ? "No slots this day" : "Choose a time"} />
                      </SelectTrigger>
                      <SelectContent className="max-h-72">
                        {slots.map((slot) => (
                          <SelectItem key={slot} value={slot}>
                            {formatSlot(slot)}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  </FormField>
                )}
              />
            </div>
            <SlotClashNote dealershipId={dealershipId} timezone={timezone} date={chosenDate} time={chosenTime} minutes={chosenMinutes} className="-mt-2" />
            <FormField label="Description" error={errors.description?.message}>
              <Textarea id="appointment-description" rows={4} placeholder="What is the visit about? Vehicle of interest, trade-in, financing…" {...form.register("description")} />
            </FormField>
            <div className="flex flex-col-reverse gap-2 border-t pt-5 sm:flex-row sm:justify-end">
              <Button asChild variant="outline">
                <Link to={backTo}>Cancel</Link>
              </Button>
              <Button type="submit" disabled={locked} variant={phase === "scheduled" ? "success" : "default"} className="sm:min-w-48">
                {phase === "submitting" && <Spinner />}
                {phase === "scheduled" && <CheckCircle2 />}
                {phase === "submitting" ? "Scheduling..." : phase === "scheduled" ? "Scheduled!" : "Schedule Appointment"}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
