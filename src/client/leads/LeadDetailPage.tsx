import { ArrowLeft, FileQuestion, GitMerge, Pencil, Save, Trash2, X } from "lucide-react";
import { useEffect, useState, type ComponentType, type ReactNode } from "react";
import { Controller } from "react-hook-form";
import { Link, useLocation, useNavigate, useParams } from "react-router";
import { DEFAULT_TIMEZONE, LEAD_STATUSES, type LeadStatus } from "../../shared/constants";
import { onDealershipClock } from "../../shared/dealership-clock";
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
import { ApiError, errorStatus, serverMessage } from "../lib/api";
import type { LeadRefusal } from "../../shared/schemas/responses/leads";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useDeleteLead, useLead, useUpdateLead, useUpdateLeadStatus } from "./api";
import { LostReasonDialog } from "./LostReasonDialog";
import { useLostReasons } from "./lost-reasons-api";
import { ClaimButton, LeadStatusBadge, TimeAgo } from "./components";
import { DeleteLeadDialog } from "./lead-row-menu";
import { DuplicateBanner } from "./DuplicateBanner";
import { recordCall } from "./duplicates-api";
import { LeadSourceBadge } from "../intake/LeadSourceBadge";
import { LeadTestDrives } from "./LeadTestDrives";
import { LeadVehicles } from "./LeadVehicles";
import { LeadTimeline } from "./LeadTimeline";
import { LeadTasks } from "../tasks/LeadTasks";
import { useClaimAction } from "./use-lead-actions";
import { formatPhone, phoneHref } from "../../shared/phone";

// /leads/detail/:leadId (spec part 2 Lead detail): Lead Information with Edit Lead (Save / Cancel restores), a side
// column (Created, Status, Claimed By, Claimed At), the lead's appointments and test drives, and a not-found state.

/** Lists of other areas shown under the lead (appointments now; the test-drives area adds its list here). */
export const leadDetailPanels: Array<ComponentType<{ leadId: string }>> = [LeadVehicles, LeadTasks, LeadAppointments, LeadTestDrives, LeadTimeline];

const formValues = (lead: Lead) => ({
  firstName: lead.firstName,
  lastName: lead.lastName,
  email: lead.email ?? "",
  phone: formatPhone(lead.phone),
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

/** The kept lead a 404 names when the lead opened was merged into it (decision 188), for a viewer who may open it. */
function mergedIntoOf(error: unknown): LeadRefusal["mergedInto"] {
  return error instanceof ApiError && error.status === 404 ? (error.data as LeadRefusal | undefined)?.mergedInto : undefined;
}

/** What the page says after a bookmark of a merged-away lead brought the user here (decision 188). */
function MergedNotice() {
  return (
    <p role="status" className="mb-6 flex items-start gap-2 rounded-xl border border-primary/20 bg-primary/5 p-4 text-sm" data-testid="merged-notice">
      <GitMerge className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
      The lead you opened was merged into this one: its appointments, test drives and history are here.
    </p>
  );
}

export function LeadDetailPage() {
  const { leadId = "" } = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { dealership } = useCurrentDealership();
  const dealershipId = dealership?.id ?? "";
  const timezone = dealership?.timezone ?? DEFAULT_TIMEZONE;
  const query = useLead(leadId);
  const lead = query.data;
  const update = useUpdateLead(dealershipId, leadId);
  const remove = useDeleteLead(dealershipId);
  const claim = useClaimAction(dealershipId, "short");
  const changeStatus = useUpdateLeadStatus(dealershipId);
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  // A quick move to Lost waits for its reason (decision 202).
  const [askingLostReason, setAskingLostReason] = useState(false);
  const form = useZodForm(updateLeadSchema, { defaultValues: lead ? formValues(lead) : undefined });
  const { errors } = form.formState;
  const editedStatus = form.watch("status");
  const lostReasons = useLostReasons(dealershipId, editing && editedStatus === "lost");

  useEffect(() => {
    if (lead && !editing) form.reset(formValues(lead));
  }, [lead, editing, form]);

  // A bookmark of a merged-away lead: on to the lead it lives in, saying so there.
  const mergedInto = mergedIntoOf(query.error);
  useEffect(() => {
    if (mergedInto) navigate(`/leads/detail/${mergedInto.id}`, { replace: true, state: { mergedFrom: leadId } });
  }, [mergedInto, leadId, navigate]);
  const arrivedFromMerged = typeof (location.state as { mergedFrom?: unknown } | null)?.mergedFrom === "string";

  if (query.isPending || mergedInto) {
    return (
      <div className="mx-auto max-w-6xl" role="status" aria-busy="true" aria-label="Loading lead">
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
      // A reason goes only with a move to Lost (decision 202).
      await update.mutateAsync(values.status === "lost" && lead.status !== "lost" ? values : { ...values, lostReason: undefined });
      toast({ title: "Lead Updated", description: "The lead's details were saved.", variant: "success" });
      setEditing(false);
    } catch (error) {
      applyServerFieldErrors(form, error);
      toast({ title: "Update Failed", description: serverMessage(error, "Failed to update lead"), variant: "destructive" });
    }
  });

  function quickStatus(status: LeadStatus, lostReason?: string) {
    changeStatus.mutate(
      { leadId: lead!.id, status, lostReason },
      {
        onSuccess: () => {
          setAskingLostReason(false);
          toast({ title: "Lead status updated successfully", variant: "success" });
        },
        onError: (error) => toast({ title: "Failed to update lead status", description: serverMessage(error, "Try again."), variant: "destructive" }),
      },
    );
  }

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
      {arrivedFromMerged && <MergedNotice />}
      <LostReasonDialog
        dealershipId={dealershipId}
        leadName={fullName(lead)}
        open={askingLostReason}
        pending={changeStatus.isPending}
        onCancel={() => setAskingLostReason(false)}
        onConfirm={(reason) => quickStatus("lost", reason)}
      />
      <DeleteLeadDialog lead={lead} open={confirmDelete} onOpenChange={setConfirmDelete} onConfirm={() => void deleteLead()} />
      <DuplicateBanner lead={lead} dealershipId={dealershipId} />

      {/* grid-cols-1: tracks no wider than the screen, so a long e-mail or vehicle wraps instead of widening the page. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="grid grid-cols-1 content-start gap-6 lg:col-span-2">
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
                    {editedStatus === "lost" && lead.status !== "lost" && (
                      <Controller
                        control={form.control}
                        name="lostReason"
                        render={({ field }) => (
                          <FormField label="Lost Reason" required error={errors.lostReason?.message}>
                            <Select value={field.value ?? ""} onValueChange={field.onChange}>
                              <SelectTrigger id="edit-lost-reason" aria-label="Lost reason" className="w-full">
                                <SelectValue placeholder="Choose why it was lost" />
                              </SelectTrigger>
                              <SelectContent>
                                {(lostReasons.data ?? []).map((reason) => (
                                  <SelectItem key={reason} value={reason}>
                                    {reason}
                                  </SelectItem>
                                ))}
                              </SelectContent>
                            </Select>
                          </FormField>
                        )}
                      />
                    )}
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
                      <a href={phoneHref(lead.phone) ?? undefined} onClick={() => recordCall(lead.id)} className="tabular-nums text-primary hover:underline">
                        {formatPhone(lead.phone)}
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
                <span>{onDealershipClock(lead.createdAt, timezone)}</span>
                <span className="block text-xs">
                  <TimeAgo value={lead.createdAt} />
                </span>
              </Field>
              <Field label="Status">
                {/* A quick status change without opening the edit form (PATCH /api/leads/{id}/status, part 1 §7, §8). */}
                <Select
                  value={lead.status}
                  disabled={editing || changeStatus.isPending}
                  onValueChange={(status) => (status === "lost" ? setAskingLostReason(true) : quickStatus(status as LeadStatus))}
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
              {lead.status === "lost" && lead.lostReason && <Field label="Lost Reason">{lead.lostReason}</Field>}
              <Field label="Claimed By">{lead.claimedBy ? (lead.claimedByName ?? lead.claimedBy) : <span className="text-muted-foreground">Not claimed</span>}</Field>
              <Field label="Claimed At">
                {lead.claimedAt ? onDealershipClock(lead.claimedAt, timezone) : <span className="text-muted-foreground">Not claimed</span>}
              </Field>
            </dl>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
