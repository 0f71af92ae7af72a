import { ArrowLeft, FileQuestion, Pencil, Save, Trash2, X } from "lucide-react";
import { useEffect, useState, type ComponentType, type ReactNode } from "react";
import { Controller } from "react-hook-form";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { LEAD_STATUSES, type LeadStatus } from "../../shared/constants";
import { fullName } from "../../shared/format";
import { LEAD_STATUS_LABELS, updateLeadSchema, type Lead } from "../../shared/schemas/lead";
import { LeadAppointments } from "../appointments/LeadAppointments";
import { EmptyState, PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { PhoneInput } from "../components/ui/phone-input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { Textarea } from "../components/ui/textarea";
import { useCurrentDealership } from "../dealerships/dealership-context";
import { errorStatus, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useDeleteLead, useLead, useUpdateLead, useUpdateLeadStatus } from "./api";
import { ClaimButton, LeadStatusBadge, TimeAgo } from "./components";
import { DeleteLeadDialog } from "./lead-row-menu";
import { DuplicateBanner } from "./DuplicateBanner";
import { recordCall } from "./duplicates-api";
import { LeadSourceBadge } from "../intake/LeadSourceBadge";
import { LeadTestDrives } from "./LeadTestDrives";
import { useClaimAction } from "./use-lead-actions";

// /leads/detail/:leadId (spec part 2 Lead detail): Lead Information with Edit Lead (Save / Cancel restores), a side
// column (Created, Status, Claimed By, Claimed At), the lead's appointments and test drives, and a not-found state.

/** Lists of other areas shown under the lead (appointments now; the test-drives area adds its list here). */
export const leadDetailPanels: Array<ComponentType<{ leadId: string }>> = [LeadAppointments, LeadTestDrives];

const formValues = (lead: Lead) => ({
  firstName: lead.firstName,
  lastName: lead.lastName,
  email: lead.email ?? "",
  phone: lead.phone ?? "",
  description: lead.description ?? "",
  status: lead.status,
});

// A <dl> holds only <div>s of one <dt> and its <dd>s: layout goes on the Field itself, never on a wrapper (axe).
function Field({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("grid gap-1", className)}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-[15px]">{children}</dd>
    </div>
  );
}

const notProvided = <span className="text-muted-foreground">Not provided</span>;

export function LeadDetailPage() {
  const { leadId = "" } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { dealership } = useCurrentDealership();
  const dealershipId = dealership?.id ?? "";
  const query = useLead(leadId);
  const lead = query.data;
  const update = useUpdateLead(dealershipId, leadId);
  const remove = useDeleteLead(dealershipId);
  const claim = useClaimAction(dealershipId, "short");
  const changeStatus = useUpdateLeadStatus(dealershipId);
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const form = useZodForm(updateLeadSchema, { defaultValues: lead ? formValues(lead) : undefined });
  const { errors } = form.formState;

  useEffect(() => {
    if (lead && !editing) form.reset(formValues(lead));
  }, [lead, editing, form]);

  if (query.isPending) {
    return (
      <div className="mx-auto max-w-6xl" aria-busy="true" aria-label="Loading lead">
        <Skeleton className="h-9 w-24" />
        <Skeleton className="mt-6 h-8 w-64" />
        <div className="mt-8 grid gap-6 lg:grid-cols-3">
          <Skeleton className="h-80 rounded-xl lg:col-span-2" />
          <Skeleton className="h-64 rounded-xl" />
        </div>
      </div>
    );
  }

  if (!lead) {
    const missing = errorStatus(query.error) === 404;
    return (
      <Card className="mx-auto mt-4 max-w-xl">
        <EmptyState
          icon={<FileQuestion />}
          title={missing ? "Lead Not Found" : "The lead could not be loaded"}
          action={
            <Button asChild>
              <Link to="/leads/new">Back to Leads</Link>
            </Button>
          }
        >
          {missing ? "The lead you're looking for doesn't exist or has been deleted." : "Check your connection and try again."}
        </EmptyState>
      </Card>
    );
  }

  const save = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      toast({ title: "Lead Updated", description: "The lead's details were saved.", variant: "success" });
      setEditing(false);
    } catch (error) {
      applyServerFieldErrors(form, error);
      toast({ title: "Update Failed", description: serverMessage(error, "Failed to update lead"), variant: "destructive" });
    }
  });

  function cancel() {
    form.reset(formValues(lead!));
    setEditing(false);
  }

  // Back to where the lead was opened from (My Clients, the calendar, the dashboard...), issue 12; a lead opened from
  // outside the app (a link in an e-mail) goes to New Leads.
  function goBack() {
    if (location.key !== "default") navigate(-1);
    else navigate("/leads/new");
  }

  async function deleteLead() {
    try {
      await remove.mutateAsync(leadId);
      toast({ title: "✓ Lead Deleted", description: "The lead has been successfully removed.", variant: "success" });
      navigate("/leads/new");
    } catch {
      toast({ title: "Error", description: "Failed to delete the lead. Please try again.", variant: "destructive" });
    }
  }

  return (
    <div className="mx-auto max-w-6xl">
      <Button variant="ghost" size="sm" className="-ml-2 mb-4" onClick={goBack}>
        <ArrowLeft />
        Back
      </Button>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {fullName(lead)}
            <LeadStatusBadge status={lead.status} />
          </span>
        }
        documentTitle={fullName(lead)}
        description="Lead details"
        actions={
          !editing && (
            <>
              {lead.status === "new" && <ClaimButton size="default" onClaim={() => claim(lead.id)} />}
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil />
                Edit Lead
              </Button>
              <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => setConfirmDelete(true)} disabled={remove.isPending}>
                <Trash2 />
                Delete
              </Button>
            </>
          )
        }
      />
      <DeleteLeadDialog lead={lead} open={confirmDelete} onOpenChange={setConfirmDelete} onConfirm={() => void deleteLead()} />
      <DuplicateBanner lead={lead} dealershipId={dealershipId} />

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="grid content-start gap-6 lg:col-span-2">
          <Card>
            <CardHeader>
              <CardTitle>Lead Information</CardTitle>
            </CardHeader>
            <CardContent>
              {editing ? (
                <form onSubmit={(e) => void save(e)} noValidate className="grid gap-5" aria-label="Edit lead">
                  <div className="grid gap-5 sm:grid-cols-2">
                    <FormField label="First Name" required error={errors.firstName?.message}>
                      <Input id="edit-first-name" {...form.register("firstName")} />
                    </FormField>
                    <FormField label="Last Name" required error={errors.lastName?.message}>
                      <Input id="edit-last-name" {...form.register("lastName")} />
                    </FormField>
                    <FormField label="Email" error={errors.email?.message}>
                      <Input id="edit-email" type="email" inputMode="email" {...form.register("email")} />
                    </FormField>
                    <FormField label="Phone" error={errors.phone?.message}>
                      <PhoneInput id="edit-phone" registration={form.register("phone")} />
                    </FormField>
                    <Controller
                      control={form.control}
                      name="status"
                      render={({ field }) => (
                        <FormField label="Status" error={errors.status?.message}>
                          <Select value={field.value} onValueChange={field.onChange}>
                            <SelectTrigger id="edit-status" aria-label="Status" className="w-full">
                              <SelectValue />
                            </SelectTrigger>
                            <SelectContent>
                              {LEAD_STATUSES.map((s) => (
                                <SelectItem key={s} value={s}>
                                  {LEAD_STATUS_LABELS[s]}
                                </SelectItem>
                              ))}
                            </SelectContent>
                          </Select>
                        </FormField>
                      )}
                    />
                  </div>
                  <FormField label="Description" error={errors.description?.message}>
                    <Textarea id="edit-description" rows={4} {...form.register("description")} />
                  </FormField>
                  <div className="flex flex-col-reverse gap-2 border-t pt-5 sm:flex-row sm:justify-end">
                    <Button type="button" variant="outline" onClick={cancel}>
                      <X />
                      Cancel
                    </Button>
                    <Button type="submit" disabled={form.formState.isSubmitting}>
                      {form.formState.isSubmitting ? <Spinner /> : <Save />}
                      {form.formState.isSubmitting ? "Saving..." : "Save"}
                    </Button>
                  </div>
                </form>
              ) : (
                <dl className="grid gap-5 sm:grid-cols-2" data-testid="lead-information">
                  <Field label="Status">
                    <LeadStatusBadge status={lead.status} />
                  </Field>
                  <Field label="Source">
                    <LeadSourceBadge lead={lead} />
                  </Field>
                  <Field label="First Name">{lead.firstName}</Field>
                  <Field label="Last Name">{lead.lastName}</Field>
                  <Field label="Email">
                    {lead.email ? (
                      <a href={`mailto:${lead.email}`} className="text-primary hover:underline">
                        {lead.email}
                      </a>
                    ) : (
                      notProvided
                    )}
                  </Field>
                  <Field label="Phone">
                    {lead.phone ? (
                      // A call is an answer to the lead (speed-to-lead, decision 140).
                      <a href={`tel:${lead.phone.replace(/[^\d+]/g, "")}`} onClick={() => recordCall(lead.id)} className="tabular-nums text-primary hover:underline">
                        {lead.phone}
                      </a>
                    ) : (
                      notProvided
                    )}
                  </Field>
                  <Field label="Description" className="sm:col-span-2">
                    {lead.description ? <p className="whitespace-pre-wrap">{lead.description}</p> : <span className="text-muted-foreground">No description provided</span>}
                  </Field>
                </dl>
              )}
            </CardContent>
          </Card>
          {leadDetailPanels.map((Panel, i) => (
            <Panel key={i} leadId={lead.id} />
          ))}
        </div>

        <Card className="h-fit">
          <CardHeader>
            <CardTitle>Details</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-4" data-testid="lead-side">
              <Field label="Created">
                <span>{new Date(lead.createdAt).toLocaleString()}</span>
                <span className="block text-xs">
                  <TimeAgo value={lead.createdAt} />
                </span>
              </Field>
              <Field label="Status">
                {/* A quick status change without opening the edit form (PATCH /api/leads/{id}/status, part 1 §7, §8). */}
                <Select
                  value={lead.status}
                  disabled={editing || changeStatus.isPending}
                  onValueChange={(status) =>
                    changeStatus.mutate(
                      { leadId: lead.id, status: status as LeadStatus },
                      {
                        onSuccess: () => toast({ title: "Lead status updated successfully", variant: "success" }),
                        onError: () => toast({ title: "Failed to update lead status", variant: "destructive" }),
                      },
                    )
                  }
                >
                  <SelectTrigger aria-label="Change status" className="mt-1 h-9 w-full" data-testid="quick-status">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {LEAD_STATUSES.map((st) => (
                      <SelectItem key={st} value={st}>
                        {LEAD_STATUS_LABELS[st]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </Field>
              <Field label="Claimed By">{lead.claimedBy ? (lead.claimedByName ?? lead.claimedBy) : <span className="text-muted-foreground">Not claimed</span>}</Field>
              <Field label="Claimed At">
                {lead.claimedAt ? new Date(lead.claimedAt).toLocaleString() : <span className="text-muted-foreground">Not claimed</span>}
              </Field>
            </dl>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
