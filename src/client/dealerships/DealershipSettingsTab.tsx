import { Save } from "lucide-react";
import { useEffect, useMemo } from "react";
import { dayHoursText, WEEKDAY_LABELS, WEEKDAYS, type BusinessHours, type Weekday } from "../../shared/business-hours";
import { localMoment } from "../../shared/dealership-clock";
import { formatPhone } from "../../shared/phone";
import { dealershipSettingsSchema, type DealershipSettingsInput } from "../../shared/schemas/dealership-settings";
import type { DealershipSettingsAnswer } from "../../shared/schemas/responses/dealership-settings";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input, inputClass } from "../components/ui/input";
import { PhoneInput } from "../components/ui/phone-input";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { Switch } from "../components/ui/switch";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useDealershipSettings, useSaveDealershipSettings } from "./settings-api";

// Admin Panel → Settings (issue 30, decision 191): the dealership's details, its time zone and business hours, saved
// together with PUT /api/dealerships/{id}/settings. The hours decide the appointment slots and the follow-up rules'
// "next business day"; a new time zone moves nothing already stored.

/** Every half hour of a day: the hours' choices (slots are half-hourly). */
const HALF_HOURS = Array.from({ length: 48 }, (_, i) => `${String(Math.floor(i / 2)).padStart(2, "0")}:${i % 2 ? "30" : "00"}`);
const DEFAULT_DAY = { open: "09:00", close: "18:00" };

/** The IANA zones this browser knows, and the saved one even if it does not. */
function timezoneChoices(saved: string): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return zones.includes(saved) ? zones : [saved, ...zones].sort();
}

const formValues = (s: DealershipSettingsAnswer): DealershipSettingsInput => ({
  name: s.name,
  address: s.address ?? "",
  phone: formatPhone(s.phone),
  email: s.email ?? "",
  website: s.website ?? "",
  timezone: s.timezone,
  businessHours: s.businessHours,
});

export function DealershipSettingsTab({ dealershipId }: { dealershipId: string }) {
  const query = useDealershipSettings(dealershipId);
  if (!query.data) {
    return (
      <Card role="status" aria-busy="true" aria-label="Loading settings">
        <CardContent className="grid gap-4 pt-6">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
          <Skeleton className="h-64 rounded-lg" />
        </CardContent>
      </Card>
    );
  }
  return <SettingsForm dealershipId={dealershipId} saved={query.data} />;
}

function SettingsForm({ dealershipId, saved }: { dealershipId: string; saved: DealershipSettingsAnswer }) {
  const save = useSaveDealershipSettings(dealershipId);
  const form = useZodForm(dealershipSettingsSchema, { defaultValues: formValues(saved) });
  const { errors, isDirty } = form.formState;
  // Another tab's or manager's save arrives with the query: the form follows it unless this one has edits.
  useEffect(() => {
    if (!form.formState.isDirty) form.reset(formValues(saved));
  }, [saved, form]);
  const timezone = form.watch("timezone");
  const hours = form.watch("businessHours") as BusinessHours;
  const zones = useMemo(() => timezoneChoices(saved.timezone), [saved.timezone]);

  const setDay = (day: Weekday, value: BusinessHours[Weekday]) => form.setValue(`businessHours.${day}`, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });

  const submit = form.handleSubmit(async (values) => {
    try {
      const next = await save.mutateAsync(values);
      form.reset(formValues(next));
      toast({ title: "Settings saved", variant: "success" });
    } catch (error) {
      applyServerFieldErrors(form, error);
      toast({ title: "The settings were not saved", description: serverMessage(error, "Try again."), variant: "destructive" });
    }
  });

  let clockNow = "";
  try {
    clockNow = localMoment(timezone).time;
  } catch {
    clockNow = "";
  }

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label="Dealership settings" className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Dealership details</CardTitle>
          <CardDescription>How customers reach you: shown to your team and used in the e-mails and calendar invitations you send.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <FormField label="Dealership name" required error={errors.name?.message}>
            <Input id="settings-name" autoComplete="organization" {...form.register("name")} />
          </FormField>
          <FormField label="Address" error={errors.address?.message}>
            <Input id="settings-address" autoComplete="street-address" placeholder="1200 Yonge St, Toronto, ON M4T 1W1" {...form.register("address")} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Phone" error={errors.phone?.message}>
              <PhoneInput id="settings-phone" autoComplete="tel" registration={form.register("phone")} />
            </FormField>
            <FormField label="E-mail" error={errors.email?.message}>
              <Input id="settings-email" type="email" inputMode="email" autoComplete="email" placeholder="sales@dealership.com" {...form.register("email")} />
            </FormField>
          </div>
          <FormField label="Website" error={errors.website?.message}>
            <Input id="settings-website" inputMode="url" autoComplete="url" placeholder="https://dealership.com" {...form.register("website")} />
          </FormField>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Time zone and business hours</CardTitle>
          <CardDescription>
            "Today", appointment slots and follow-up times run on this clock. Changing the time zone moves nothing already
            booked: an appointment at 10:00 stays at 10:00, and a task keeps its moment, shown on the new clock.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <FormField label="Time zone" required error={errors.timezone?.message} hint={clockNow ? `It is ${clockNow} there now.` : undefined}>
            <select id="settings-timezone" className={cn(inputClass, "sm:max-w-sm")} {...form.register("timezone")}>
              {zones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone.replaceAll("_", " ")}
                </option>
              ))}
            </select>
          </FormField>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Business hours</legend>
            <p className="text-sm text-muted-foreground">The schedule form offers half-hour slots from opening until half an hour before closing; closed days offer none.</p>
            <ul className="grid gap-2">
              {WEEKDAYS.map((day) => (
                <DayRow key={day} day={day} hours={hours[day]} error={errors.businessHours?.[day]?.close?.message ?? errors.businessHours?.[day]?.open?.message} onChange={(value) => setDay(day, value)} />
              ))}
            </ul>
          </fieldset>
        </CardContent>
      </Card>

      <div className="flex flex-wrap items-center justify-end gap-3">
        {isDirty && <p className="text-sm text-muted-foreground">You have unsaved changes.</p>}
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : <Save aria-hidden="true" />}
          Save settings
        </Button>
      </div>
    </form>
  );
}

function DayRow({ day, hours, error, onChange }: { day: Weekday; hours: BusinessHours[Weekday]; error?: string; onChange: (value: BusinessHours[Weekday]) => void }) {
  const label = WEEKDAY_LABELS[day];
  const ids = { open: `hours-${day}-open`, close: `hours-${day}-close`, error: `hours-${day}-error`, switch: `hours-${day}-switch` };
  return (
    <li className="grid gap-2 rounded-lg border p-3 sm:grid-cols-[9rem_1fr] sm:items-center" data-testid="business-day">
      <div className="flex items-center gap-3">
        <Switch id={ids.switch} checked={hours !== null} onCheckedChange={(open) => onChange(open ? DEFAULT_DAY : null)} aria-label={`Open on ${label}`} />
        <label htmlFor={ids.switch} className="text-sm font-medium">
          {label}
        </label>
      </div>
      {hours ? (
        <div className="grid gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <label htmlFor={ids.open} className="sr-only">{`${label} opening time`}</label>
            <select id={ids.open} className={cn(inputClass, "h-9 w-28")} value={hours.open} aria-invalid={error ? true : undefined} aria-describedby={error ? ids.error : undefined} onChange={(e) => onChange({ ...hours, open: e.target.value })}>
              {HALF_HOURS.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
            <span aria-hidden="true" className="text-muted-foreground">
              to
            </span>
            <label htmlFor={ids.close} className="sr-only">{`${label} closing time`}</label>
            <select id={ids.close} className={cn(inputClass, "h-9 w-28")} value={hours.close} aria-invalid={error ? true : undefined} aria-describedby={error ? ids.error : undefined} onChange={(e) => onChange({ ...hours, close: e.target.value })}>
              {HALF_HOURS.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </div>
          {error && (
            <p id={ids.error} role="alert" className="text-[13px] font-medium text-destructive">
              {error}
            </p>
          )}
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">{dayHoursText(null)}</p>
      )}
    </li>
  );
}
