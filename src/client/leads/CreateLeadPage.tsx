import { UserPlus } from "lucide-react";
import { useState } from "react";
import { Controller } from "react-hook-form";
import { Link, useNavigate } from "react-router";
import { fullName } from "../../shared/format";
import { DEFAULT_LEAD_SOURCE, FORM_LEAD_SOURCES, LEAD_SOURCE_LABELS } from "../../shared/lead-source";
import { createLeadSchema } from "../../shared/schemas/lead";
import { PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { PhoneInput } from "../components/ui/phone-input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Spinner } from "../components/ui/spinner";
import { Textarea } from "../components/ui/textarea";
import { useCan, useCurrentDealership } from "../dealerships/dealership-context";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useCreateLead, useDealershipMembers } from "./api";

// /leads/create (spec part 1 §2.6): "Create New Lead". The phone formats as 555-123-4567 while typed and takes only
// digit keys (and navigation or edit keys). Front desk and management choose a rep or leave the lead unassigned.
// Afterwards a sales user goes to My Clients (the lead is theirs), others to New Leads. On this page a failed create is
// only logged (part 1 §8); the server's field messages are shown on the fields.

const UNASSIGNED = "unassigned";

export function CreateLeadPage() {
  const navigate = useNavigate();
  const { dealership } = useCurrentDealership();
  const canAssign = useCan("assignLeads");
  const members = useDealershipMembers(dealership?.id, canAssign);
  const reps = (members.data ?? []).filter((m) => m.role === "sales");
  const create = useCreateLead(dealership?.id ?? "");
  const form = useZodForm(createLeadSchema, {
    defaultValues: { firstName: "", lastName: "", email: "", phone: "", description: "", assignedTo: "", source: DEFAULT_LEAD_SOURCE },
  });
  const { errors } = form.formState;
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await create.mutateAsync({ ...values, assignedTo: canAssign ? values.assignedTo || null : null });
      toast({ title: "Lead created successfully", variant: "success" });
      navigate(canAssign ? "/leads/new" : "/leads/my");
    } catch (error) {
      // A failed Create Lead used to show nothing (issue 12): the server's message, on the form and in a toast.
      applyServerFieldErrors(form, error);
      const message = serverMessage(error, "The lead could not be created. Please try again.");
      setFailure(message);
      toast({ title: "Failed to create lead", description: message, variant: "destructive" });
    }
  });

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Create New Lead" description="Add a new customer lead to your pipeline" />
      <Card>
        <CardHeader>
          <CardTitle>Lead Information</CardTitle>
          <CardDescription>Fields marked * are required.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={(e) => void submit(e)} noValidate className="grid gap-5">
            <div className="grid gap-5 sm:grid-cols-2">
              <FormField label="First Name" required error={errors.firstName?.message}>
                <Input id="lead-first-name" autoComplete="off" placeholder="Jane" {...form.register("firstName")} />
              </FormField>
              <FormField label="Last Name" required error={errors.lastName?.message}>
                <Input id="lead-last-name" autoComplete="off" placeholder="Doe" {...form.register("lastName")} />
              </FormField>
              <FormField label="Email" error={errors.email?.message}>
                <Input id="lead-email" type="email" inputMode="email" autoComplete="off" placeholder="jane@example.com" {...form.register("email")} />
              </FormField>
              <FormField label="Phone" error={errors.phone?.message}>
                <PhoneInput id="lead-phone" autoComplete="off" registration={form.register("phone")} />
              </FormField>
            </div>
            <Controller
              control={form.control}
              name="source"
              render={({ field }) => (
                <FormField label="Source" hint="How the customer reached the dealership.">
                  <Select value={field.value ?? DEFAULT_LEAD_SOURCE} onValueChange={field.onChange}>
                    <SelectTrigger id="lead-source" aria-label="Source" className="w-full">
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {FORM_LEAD_SOURCES.map((source) => (
                        <SelectItem key={source} value={source}>
                          {LEAD_SOURCE_LABELS[source]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </FormField>
              )}
            />
            {canAssign && (
              <Controller
                control={form.control}
                name="assignedTo"
                render={({ field }) => (
                  <FormField
                    label="Assign to Sales Rep"
                    error={errors.assignedTo?.message}
                    hint="An assigned lead goes straight to the rep's clients; unassigned leads wait in New Leads."
                  >
                    <Select value={field.value || UNASSIGNED} onValueChange={(v) => field.onChange(v === UNASSIGNED ? "" : v)}>
                      <SelectTrigger id="lead-assignee" aria-label="Assign to Sales Rep" className="w-full">
                        <SelectValue placeholder="Unassigned" />
                      </SelectTrigger>
                      <SelectContent>
                        <SelectItem value={UNASSIGNED}>Unassigned (New Leads)</SelectItem>
                        {reps.map((m) => (
                          <SelectItem key={m.userId} value={m.userId}>
                            {fullName(m.user) || m.user.email}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  </FormField>
                )}
              />
            )}
            <FormField label="Description" error={errors.description?.message}>
              <Textarea id="lead-description" rows={4} placeholder="What is the customer looking for?" {...form.register("description")} />
            </FormField>
            {failure && (
              <p role="alert" data-testid="create-lead-error" className="rounded-lg border border-destructive/30 bg-destructive/10 px-4 py-3 text-sm font-medium text-destructive">
                {failure}
              </p>
            )}
            <div className="flex flex-col-reverse gap-2 border-t pt-5 sm:flex-row sm:justify-end">
              <Button asChild variant="outline">
                <Link to="/">Cancel</Link>
              </Button>
              <Button type="submit" disabled={form.formState.isSubmitting}>
                {form.formState.isSubmitting ? <Spinner className="size-4" /> : <UserPlus />}
                {form.formState.isSubmitting ? "Creating..." : "Create Lead"}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
