import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CarFront, Check, UserRound, X } from "lucide-react";
import { useDeferredValue, useMemo, useState } from "react";
import { useForm, useWatch, type UseFormReturn } from "react-hook-form";
import { fullName } from "../../shared/format";
import type { Lead } from "../../shared/schemas/lead";
import { createTestDriveSchema } from "../../shared/schemas/test-drive";
import type { TestDriveUnit, Vehicle } from "../../shared/schemas/vehicle";
import { FormField } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { PhoneInput } from "../components/ui/phone-input";
import { SearchInput } from "../components/ui/search-input";
import { Segmented } from "../components/ui/segmented";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { fieldErrors } from "../lib/api";
import { useTestDriveUnits, useVehicles } from "./api";
import { vehicleTitle } from "./format";
import { requestResolver, serverFieldMessages } from "./request-resolver";
import { emptyDraft, takeOutProblem } from "./take-out-rules";
import { emptyTestDriveForm, testDriveRequest, type TestDriveFormValues } from "./test-drive-request";
import { formatPhone } from "../../shared/phone";

// The client and vehicle part of the take-out dialog and of Book a Test Drive (spec part 2 §2, §5): the same fields,
// the same rules. The form holds what a person types (one "full name"); the resolver turns it into the request body
// and validates that with the shared createTestDriveSchema, so the form and the server check the same object.

/** Where a message about a request field shows on the form. */
const FIELD_OF: Partial<Record<string, keyof TestDriveFormValues>> = {
  firstName: "fullName",
  lastName: "fullName",
  email: "email",
  phone: "phone",
  leadId: "leadId",
  vehicleId: "vehicleId",
  tduId: "tduId",
  stockNumber: "stockNumber",
  make: "make",
  model: "model",
  vehicleDriven: "make",
  testDriveDate: "testDriveDate",
  testDriveTime: "testDriveTime",
  notes: "notes",
};
const fieldOf = (path: string) => FIELD_OF[path];

export function useTestDriveForm(dealershipId: string, status: "out" | "scheduled", today: string, defaults: Partial<TestDriveFormValues> = {}) {
  return useForm<TestDriveFormValues>({
    defaultValues: { ...emptyTestDriveForm, ...defaults },
    resolver: requestResolver(createTestDriveSchema(today), (values: TestDriveFormValues) => testDriveRequest(values, dealershipId, status), fieldOf),
  });
}

/** The server's per-field messages (400 {fields}) placed on the form's fields. */
export function applyTestDriveServerErrors(form: UseFormReturn<TestDriveFormValues>, error: unknown): void {
  for (const [field, message] of serverFieldMessages(fieldErrors(error), fieldOf)) form.setError(field, { type: "server", message });
}

/** The rule of §5 the current values break (the submit button is disabled meanwhile), or null. */
export function useTakeOutProblem(form: UseFormReturn<TestDriveFormValues>): string | null {
  const values = useWatch({ control: form.control }) as TestDriveFormValues;
  return takeOutProblem({ ...emptyDraft, ...values });
}

// ---- Pieces ----

const LEAD_CHOICES_SHOWN = 6;

/** Choose an existing client: a search over the dealership's leads the user may see (GET .../leads?q=). */
function ExistingClientPicker({ form, dealershipId }: { form: UseFormReturn<TestDriveFormValues>; dealershipId: string }) {
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const q = useDeferredValue(search.trim());
  const leadId = useWatch({ control: form.control, name: "leadId" });
  // The chosen lead (also when the page opened with ?leadId=): the lead's own read, filled from the list on a click.
  const chosen = useQuery<Lead>({ queryKey: ["/api/leads", leadId], enabled: Boolean(leadId), retry: false });
  const key = ["/api/dealerships", dealershipId, "leads", `limit=${LEAD_CHOICES_SHOWN}`, ...(q ? [`q=${q}`] : [])];
  const leads = useQuery<Lead[]>({ queryKey: key, enabled: !leadId, placeholderData: (previous) => previous });
  const error = form.formState.errors.leadId?.message;

  function choose(lead: Lead | null) {
    if (lead) queryClient.setQueryData(["/api/leads", lead.id], lead);
    form.setValue("leadId", lead?.id ?? "", { shouldValidate: false, shouldDirty: true });
    form.clearErrors("leadId");
  }

  if (leadId) {
    const lead = chosen.data;
    return (
      <div className="flex items-center gap-3 rounded-lg border border-primary/30 bg-primary/5 p-3" data-testid="chosen-client">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
          <UserRound className="size-4" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          {lead ? (
            <>
              <p className="truncate text-sm font-semibold">{fullName(lead)}</p>
              <p className="truncate text-xs text-muted-foreground">{[lead.email, lead.phone && formatPhone(lead.phone)].filter(Boolean).join(" · ") || "No contact details"}</p>
            </>
          ) : chosen.isPending ? (
            <Skeleton className="h-9 w-48" />
          ) : (
            <p className="text-sm text-muted-foreground">That client could not be found: choose another.</p>
          )}
        </div>
        <button
          type="button"
          onClick={() => choose(null)}
          className="rounded-md p-1.5 text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
          aria-label="Choose another client"
        >
          <X className="size-4" />
        </button>
      </div>
    );
  }

  const list = leads.data ?? [];
  return (
    <div className="grid gap-2">
      <SearchInput value={search} onValueChange={setSearch} placeholder="Search by name, e-mail or phone" label="Search clients" />
      <div role="listbox" aria-label="Clients" className="grid max-h-56 gap-1 overflow-y-auto rounded-lg border p-1">
        {leads.isPending ? (
          <div className="grid gap-1 p-1" aria-busy="true">
            <Skeleton className="h-10" />
            <Skeleton className="h-10" />
          </div>
        ) : list.length === 0 ? (
          <p className="px-3 py-4 text-center text-sm text-muted-foreground">{q ? "No client matches this search." : "No clients yet."}</p>
        ) : (
          list.map((lead) => (
            <button
              key={lead.id}
              type="button"
              role="option"
              aria-selected={false}
              onClick={() => choose(lead)}
              className="flex min-w-0 items-center justify-between gap-3 rounded-md px-3 py-2 text-left hover:bg-muted focus-visible:bg-muted focus-visible:outline-none"
            >
              <span className="min-w-0">
                <span className="block truncate text-sm font-medium">{fullName(lead)}</span>
                <span className="block truncate text-xs text-muted-foreground">{[lead.email, lead.phone && formatPhone(lead.phone)].filter(Boolean).join(" · ") || "No contact details"}</span>
              </span>
              <Check className="size-4 shrink-0 text-transparent" aria-hidden="true" />
            </button>
          ))
        )}
      </div>
      {error && (
        <p role="alert" className="text-[13px] font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** New or existing client (part 2 §2 take-out dialog). */
export function ClientFields({ form, dealershipId }: { form: UseFormReturn<TestDriveFormValues>; dealershipId: string }) {
  const clientType = useWatch({ control: form.control, name: "clientType" });
  const { errors } = form.formState;
  return (
    <fieldset className="grid min-w-0 grid-cols-1 gap-4">
      <legend className="mb-2 text-sm font-semibold">Client</legend>
      <Segmented
        label="Client type"
        value={clientType}
        onChange={(v) => form.setValue("clientType", v, { shouldDirty: true })}
        options={[
          { value: "new", label: "New client" },
          { value: "existing", label: "Existing client" },
        ]}
      />
      {clientType === "new" ? (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField label="Full name" required error={errors.fullName?.message} className="sm:col-span-2">
            <Input id="td-full-name" autoComplete="off" placeholder="Jane Doe" {...form.register("fullName")} />
          </FormField>
          <FormField label="Email" required error={errors.email?.message}>
            <Input id="td-email" type="email" inputMode="email" autoComplete="off" placeholder="jane@example.com" {...form.register("email")} />
          </FormField>
          <FormField label="Phone" required error={errors.phone?.message}>
            <PhoneInput id="td-phone" autoComplete="off" registration={form.register("phone")} />
          </FormField>
        </div>
      ) : (
        <ExistingClientPicker form={form} dealershipId={dealershipId} />
      )}
    </fieldset>
  );
}

function VehicleSummary({ vehicle }: { vehicle: Vehicle }) {
  return (
    <div className="flex items-center gap-3 rounded-lg border bg-muted/40 p-3" data-testid="chosen-vehicle">
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
        <CarFront className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <p className="truncate text-sm font-semibold">
          {vehicleTitle(vehicle)}
          {vehicle.trim ? ` ${vehicle.trim}` : ""}
        </p>
        <p className="truncate text-xs text-muted-foreground">
          Stock #{vehicle.stockNumber}
          {vehicle.exteriorColor ? ` · ${vehicle.exteriorColor}` : ""}
        </p>
      </div>
    </div>
  );
}

/**
 * Inventory vehicle, test-drive unit or manual entry. `fixedVehicle`: the take-out dialog opened from a vehicle's card
 * takes that vehicle (manual entry stays possible).
 */
export function VehicleFields({ form, dealershipId, fixedVehicle }: { form: UseFormReturn<TestDriveFormValues>; dealershipId: string; fixedVehicle?: Vehicle }) {
  const vehicleType = useWatch({ control: form.control, name: "vehicleType" });
  const vehicleId = useWatch({ control: form.control, name: "vehicleId" });
  const tduId = useWatch({ control: form.control, name: "tduId" });
  const vehicles = useVehicles(!fixedVehicle && vehicleType === "vehicle" ? dealershipId : undefined, { status: "available" });
  const units = useTestDriveUnits(vehicleType === "tdu" ? dealershipId : undefined);
  const offered = useMemo(() => vehicles.items.filter((v) => v.isActive && v.isTestDriveEnabled), [vehicles.items]);
  const freeUnits = useMemo(() => units.items.filter((u) => u.isActive && u.status === "available"), [units.items]);
  const { errors } = form.formState;

  return (
    <fieldset className="grid min-w-0 grid-cols-1 gap-4">
      <legend className="mb-2 text-sm font-semibold">Vehicle</legend>
      <Segmented
        label="Vehicle source"
        value={vehicleType}
        onChange={(v) => form.setValue("vehicleType", v, { shouldDirty: true })}
        options={[
          { value: "vehicle", label: "Inventory" },
          { value: "tdu", label: "Demo unit" },
          { value: "manual", label: "Manual" },
        ]}
      />
      {vehicleType === "vehicle" &&
        (fixedVehicle ? (
          <VehicleSummary vehicle={fixedVehicle} />
        ) : (
          <FormField label="Inventory vehicle" required error={errors.vehicleId?.message}>
            <Select value={vehicleId || undefined} onValueChange={(v) => form.setValue("vehicleId", v, { shouldDirty: true })}>
              <SelectTrigger id="td-vehicle" aria-label="Inventory vehicle" className="w-full" disabled={vehicles.isPending}>
                <SelectValue placeholder={vehicles.isPending ? "Loading vehicles..." : offered.length ? "Choose an available vehicle" : "No vehicle is available"} />
              </SelectTrigger>
              <SelectContent className="max-h-72">
                {offered.map((v: Vehicle) => (
                  <SelectItem key={v.id} value={v.id}>
                    {vehicleTitle(v)}
                    {v.trim ? ` ${v.trim}` : ""} · #{v.stockNumber}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
        ))}
      {vehicleType === "tdu" && (
        <FormField label="Demo unit" required error={errors.tduId?.message}>
          <Select value={tduId || undefined} onValueChange={(v) => form.setValue("tduId", v, { shouldDirty: true })}>
            <SelectTrigger id="td-unit" aria-label="Demo unit" className="w-full" disabled={units.isPending}>
              <SelectValue placeholder={units.isPending ? "Loading units..." : freeUnits.length ? "Choose an available unit" : "No unit is available"} />
            </SelectTrigger>
            <SelectContent className="max-h-72">
              {freeUnits.map((u: TestDriveUnit) => (
                <SelectItem key={u.id} value={u.id}>
                  {vehicleTitle(u)} · #{u.stockNumber}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
      )}
      {vehicleType === "manual" && (
        <div className="grid gap-4 sm:grid-cols-3">
          <FormField label="Stock number" required error={errors.stockNumber?.message}>
            <Input id="td-stock" autoComplete="off" placeholder="A1234" {...form.register("stockNumber")} />
          </FormField>
          <FormField label="Make" required error={errors.make?.message}>
            <Input id="td-make" autoComplete="off" placeholder="Honda" {...form.register("make")} />
          </FormField>
          <FormField label="Model" required error={errors.model?.message}>
            <Input id="td-model" autoComplete="off" placeholder="Civic" {...form.register("model")} />
          </FormField>
        </div>
      )}
    </fieldset>
  );
}
