import { ArrowLeft, CalendarCheck, CalendarIcon, KeyRound } from "lucide-react";
import { useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { APPOINTMENT_TIME_SLOTS } from "../../shared/constants";
import { localMoment } from "../../shared/dealership-clock";
import { fullName } from "../../shared/format";
import { dateFromIso, formatSlot, isoFromDate, longDate } from "../appointments/format";
import { DRIVE_SLOT_MINUTES } from "../appointments/slot-clash";
import { SlotClashNote } from "../appointments/SlotClashNote";
import { PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Calendar } from "../components/ui/calendar";
import { Card, CardContent } from "../components/ui/card";
import { FormField } from "../components/ui/form";
import { Popover, PopoverContent, PopoverTrigger } from "../components/ui/popover";
import { Segmented } from "../components/ui/segmented";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { Textarea } from "../components/ui/textarea";
import { useCurrentDealership } from "../dealerships/dealership-context";
import { NoDealership } from "../dealerships/NoDealership";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useCreateTestDrive } from "./api";
import { LiveClock } from "./LiveClock";
import { applyTestDriveServerErrors, ClientFields, useTakeOutProblem, useTestDriveForm, VehicleFields } from "./test-drive-form";
import { testDriveRequest } from "./test-drive-request";

// /test-drives/book and /book-test-drive (spec part 2 §2): "Book a Test Drive" with "Back to Test Drives", the clock on
// the dealership's time refreshed every second, and the take-out dialog's client and vehicle fields with its rules.
// A drive is booked for a date and time on the dealership's clock (stored "scheduled"), or taken out right now.
// ?leadId= starts with that existing client (the lead page's "Book Test Drive"), ?vehicleId= with that inventory
// vehicle (the lead's vehicle of interest, decision 188). Decision 067.

type When = "later" | "now";

export function BookTestDrivePage() {
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
  return <BookingForm key={dealership.id} dealershipId={dealership.id} timezone={dealership.timezone} />;
}

function BookingForm({ dealershipId, timezone }: { dealershipId: string; timezone: string }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const leadId = params.get("leadId");
  const vehicleId = params.get("vehicleId");
  const [when, setWhen] = useState<When>("later");
  const now = localMoment(timezone);
  const form = useTestDriveForm(dealershipId, when === "now" ? "out" : "scheduled", now.date, {
    ...(leadId ? { clientType: "existing", leadId } : {}),
    ...(vehicleId ? { vehicleType: "vehicle", vehicleId } : {}),
    testDriveDate: now.date,
  });
  const problem = useTakeOutProblem(form);
  const create = useCreateTestDrive(dealershipId);
  const [dateOpen, setDateOpen] = useState(false);
  const date = useWatch({ control: form.control, name: "testDriveDate" });
  const time = useWatch({ control: form.control, name: "testDriveTime" });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    const status = when === "now" ? "out" : "scheduled";
    try {
      const drive = await create.mutateAsync(testDriveRequest(values, dealershipId, status));
      if (status === "out") {
        toast({ title: "Demo Taken Out", description: `${drive.vehicleDriven ?? "The vehicle"} is out with ${fullName(drive)}.`, variant: "success" });
      } else {
        const at = drive.testDriveDate ? `${longDate(drive.testDriveDate)}${drive.testDriveTime ? ` at ${formatSlot(drive.testDriveTime)}` : ""}` : "";
        toast({ title: "Test Drive Booked", description: `${fullName(drive)}${at ? `, ${at}` : ""}.`, variant: "success" });
      }
      navigate(`/test-drives/${drive.id}`);
    } catch (error) {
      applyTestDriveServerErrors(form, error);
      const fallback = status === "out" ? "Failed to take out demo vehicle" : "Failed to book test drive";
      toast({ title: "Error", description: serverMessage(error, fallback), variant: "destructive" });
    }
  });

  // Slots already past today (on the dealership's clock) cannot be booked.
  const pastSlot = (slot: string) => date === now.date && slot <= now.time;

  return (
    <div className="mx-auto max-w-3xl">
      <Button asChild variant="ghost" size="sm" className="-ml-2 mb-4">
        <Link to="/test-drives">
          <ArrowLeft />
          Back to Test Drives
        </Link>
      </Button>
      <PageHeader title="Book a Test Drive" description="Book a drive for later, or take a vehicle out right now." actions={<LiveClock timezone={timezone} className="w-full sm:w-auto" />} />
      <Card>
        <CardContent className="pt-5 sm:pt-6">
          <form id="book-test-drive" noValidate onSubmit={(e) => void submit(e)} className="grid grid-cols-1 gap-7">
            <Segmented
              label="When"
              value={when}
              onChange={(v) => {
                setWhen(v);
                form.clearErrors();
              }}
              options={[
                { value: "later", label: "Book for later", icon: <CalendarCheck aria-hidden="true" /> },
                { value: "now", label: "Take out now", icon: <KeyRound aria-hidden="true" /> },
              ]}
              className="sm:max-w-sm"
            />
            <ClientFields form={form} dealershipId={dealershipId} />
            <VehicleFields form={form} dealershipId={dealershipId} />
            {when === "later" && (
              <fieldset className="grid min-w-0 grid-cols-1 gap-4">
                <legend className="mb-2 text-sm font-semibold">Date and time</legend>
                <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                  <Controller
                    control={form.control}
                    name="testDriveDate"
                    render={({ field }) => (
                      <FormField label="Date" required error={errors.testDriveDate?.message}>
                        <Popover open={dateOpen} onOpenChange={setDateOpen}>
                          <PopoverTrigger asChild>
                            <Button
                              id="td-date"
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
                              defaultMonth={dateFromIso(field.value || now.date)}
                              today={dateFromIso(now.date)}
                              disabled={{ before: dateFromIso(now.date) }}
                              onSelect={(d: Date | undefined) => {
                                if (!d) return;
                                field.onChange(isoFromDate(d));
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
                    name="testDriveTime"
                    render={({ field }) => (
                      <FormField label="Time" required error={errors.testDriveTime?.message}>
                        <Select value={field.value || undefined} onValueChange={field.onChange}>
                          <SelectTrigger id="td-time" aria-label="Time">
                            <SelectValue placeholder="Choose a time" />
                          </SelectTrigger>
                          <SelectContent className="max-h-72">
                            {APPOINTMENT_TIME_SLOTS.map((slot) => (
                              <SelectItem key={slot} value={slot} disabled={pastSlot(slot)}>
                                {formatSlot(slot)}
                              </SelectItem>
                            ))}
                          </SelectContent>
                        </Select>
                      </FormField>
                    )}
                  />
                </div>
                <SlotClashNote dealershipId={dealershipId} timezone={timezone} date={date ?? undefined} time={time ?? undefined} minutes={DRIVE_SLOT_MINUTES} />
              </fieldset>
            )}
            <FormField label="Notes" error={errors.notes?.message}>
              <Textarea id="td-notes" rows={3} placeholder="Route, trade-in, what the client wants to try…" {...form.register("notes")} />
            </FormField>
            <div className="flex flex-col gap-3 border-t pt-5 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-[13px] text-muted-foreground" data-testid="take-out-problem" aria-live="polite">
                {problem ?? (when === "now" ? "The vehicle goes out as soon as you confirm." : "Ready to book.")}
              </p>
              <div className="flex flex-col-reverse gap-2 sm:flex-row">
                <Button asChild variant="outline">
                  <Link to="/test-drives">Cancel</Link>
                </Button>
                <Button type="submit" disabled={isSubmitting || problem !== null} className="sm:min-w-44">
                  {isSubmitting ? <Spinner /> : when === "now" ? <KeyRound /> : <CalendarCheck />}
                  {isSubmitting ? "Saving..." : when === "now" ? "Take Out Demo" : "Book Test Drive"}
                </Button>
              </div>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
