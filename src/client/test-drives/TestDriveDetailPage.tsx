import { ArrowLeft, CarFront, FileQuestion, Mail, Pencil, Phone, RotateCcw, Save, Trash2, UserRound, X } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { Link, Navigate, useNavigate, useParams } from "react-router";
import { fullName } from "../../shared/format";
import { formatDuration } from "../../shared/schemas/analytics";
import {
  detailStatusOf,
  TEST_DRIVE_DETAIL_STATUSES,
  TEST_DRIVE_DETAIL_STATUS_LABELS,
  updateTestDriveSchema,
  type TestDrive,
  type TestDriveDetailStatus,
} from "../../shared/schemas/test-drive";
import { formatSlot, longDate } from "../appointments/format";
import { EmptyState, PageHeader } from "../components/page-header";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../components/ui/alert-dialog";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { Textarea } from "../components/ui/textarea";
import { useCurrentDealership } from "../dealerships/dealership-context";
import { errorStatus, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useDeleteTestDrive, useReturnTestDrive, useSetTestDriveStatus, useTestDrive, useUpdateTestDrive } from "./api";
import { TestDriveStatusBadge } from "./components";
import { OutSince } from "./VehicleCard";
import { formatPhone, phoneHref } from "../../shared/phone";

// /test-drives/:testDriveId (spec part 2 §2 Test Drive Details): the drive with an edit mode (vehicleDriven,
// stockNumber, testDriveDate, testDriveTime, notes), a status dropdown offering scheduled, in_progress, completed,
// cancelled and no_show in any order, a delete dialog, and "Test Drive Not Found". "book" is never an id: that path
// is the booking screen (the route table lists it first; this page sends it there too).

const formValues = (drive: TestDrive) => ({
  vehicleDriven: drive.vehicleDriven ?? "",
  stockNumber: drive.stockNumber ?? "",
  testDriveDate: drive.testDriveDate ?? "",
  testDriveTime: drive.testDriveTime ?? "",
  notes: drive.notes ?? "",
});

/** One term and its value, a direct child of the <dl> (a wrapper around it broke the list for screen readers). */
function Field({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("grid gap-1", className)}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-[15px]">{children}</dd>
    </div>
  );
}

const none = (text: string) => <span className="text-muted-foreground">{text}</span>;

function formatInstant(iso: string | null, timezone: string): ReactNode {
  if (!iso) return none("—");
  return new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit", timeZone: timezone });
}

export function TestDriveDetailPage() {
  const { testDriveId = "" } = useParams();
  if (testDriveId === "book") return <Navigate to="/test-drives/book" replace />;
  return <TestDriveDetail key={testDriveId} testDriveId={testDriveId} />;
}

function TestDriveDetail({ testDriveId }: { testDriveId: string }) {
  const navigate = useNavigate();
  const { dealership } = useCurrentDealership();
  const dealershipId = dealership?.id ?? "";
  const timezone = dealership?.timezone ?? "America/Toronto";
  const query = useTestDrive(testDriveId);
  const drive = query.data;
  const update = useUpdateTestDrive(dealershipId, testDriveId);
  const setStatus = useSetTestDriveStatus(dealershipId, testDriveId);
  const giveBack = useReturnTestDrive(dealershipId, testDriveId);
  const remove = useDeleteTestDrive(dealershipId);
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const form = useZodForm(updateTestDriveSchema, { defaultValues: drive ? formValues(drive) : undefined });
  const { errors } = form.formState;

  useEffect(() => {
    if (drive && !editing) form.reset(formValues(drive));
  }, [drive, editing, form]);

  const missing = errorStatus(query.error) === 404;
  const loadFailed = query.isError && !missing;
  useEffect(() => {
    if (loadFailed) toast({ title: "Error", description: "Failed to fetch test drive details", variant: "destructive" });
  }, [loadFailed]);

  if (query.isPending) {
    return (
      <div className="mx-auto max-w-6xl" role="status" aria-busy="true" aria-label="Loading test drive">
        <Skeleton className="h-9 w-40" />
        <Skeleton className="mt-6 h-8 w-72" />
        <div className="mt-8 grid gap-6 lg:grid-cols-3">
          <Skeleton className="h-80 rounded-xl lg:col-span-2" />
          <Skeleton className="h-64 rounded-xl" />
        </div>
      </div>
    );
  }

  if (!drive) {
    return (
      <Card className="mx-auto mt-4 max-w-xl">
        <EmptyState
          icon={<FileQuestion />}
          title={missing ? "Test Drive Not Found" : "Failed to fetch test drive details"}
          action={
            <div className="flex flex-wrap justify-center gap-2">
              {!missing && (
                <Button variant="outline" onClick={() => void query.refetch()}>
                  Try again
                </Button>
              )}
              <Button asChild>
                <Link to="/test-drives">Back to Test Drives</Link>
              </Button>
            </div>
          }
        >
          {missing ? "The test drive you're looking for doesn't exist or has been deleted." : "Check your connection and try again."}
        </EmptyState>
      </Card>
    );
  }

  const save = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      toast({ title: "Test drive updated successfully", variant: "success" });
      setEditing(false);
    } catch (error) {
      applyServerFieldErrors(form, error);
      toast({ title: "Error", description: serverMessage(error, "Failed to update test drive"), variant: "destructive" });
    }
  });

  function cancel() {
    form.reset(formValues(drive!));
    setEditing(false);
  }

  function changeStatus(status: TestDriveDetailStatus) {
    setStatus.mutate(status, {
      onSuccess: () => toast({ title: "Test drive status updated successfully", variant: "success" }),
      onError: (error) => toast({ title: "Error", description: serverMessage(error, "Failed to update test drive status"), variant: "destructive" }),
    });
  }

  function markReturned() {
    giveBack.mutate(undefined, {
      onSuccess: (d) => toast({ title: "Demo Returned", description: `${d.vehicleDriven ?? "The vehicle"} is back after ${formatDuration(d.duration)}.`, variant: "success" }),
      onError: (error) => toast({ title: "Error", description: serverMessage(error, "Failed to return demo vehicle"), variant: "destructive" }),
    });
  }

  async function deleteDrive() {
    try {
      await remove.mutateAsync(testDriveId);
      toast({ title: "Test drive deleted successfully", variant: "success" });
      navigate("/test-drives");
    } catch (error) {
      toast({ title: "Error", description: serverMessage(error, "Failed to delete test drive"), variant: "destructive" });
    }
  }

  const client = fullName(drive);
  const title = drive.vehicleDriven ?? "Test Drive";
  const out = drive.status === "out";

  return (
    <div className="mx-auto max-w-6xl">
      <Button asChild variant="ghost" size="sm" className="-ml-2 mb-4">
        <Link to="/test-drives">
          <ArrowLeft />
          Back to Test Drives
        </Link>
      </Button>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {title}
            <TestDriveStatusBadge status={drive.status} />
          </span>
        }
        documentTitle={`Test drive · ${client}`}
        description={`Test drive with ${client}${drive.stockNumber ? ` · Stock #${drive.stockNumber}` : ""}`}
        actions={
          !editing && (
            <>
              {out && (
                <Button variant="success" onClick={markReturned} disabled={giveBack.isPending}>
                  {giveBack.isPending ? <Spinner /> : <RotateCcw />}
                  Mark Returned
                </Button>
              )}
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil />
                Edit
              </Button>
              <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => setConfirmDelete(true)} disabled={remove.isPending}>
                <Trash2 />
                Delete
              </Button>
            </>
          )
        }
      />

      <AlertDialog open={confirmDelete} onOpenChange={setConfirmDelete}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this test drive?</AlertDialogTitle>
            <AlertDialogDescription>
              {client}'s test drive{drive.vehicleDriven ? ` of the ${drive.vehicleDriven}` : ""} is removed for good{out ? ", and the vehicle becomes available again" : ""}. This cannot be undone.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction variant="destructive" onClick={() => void deleteDrive()}>
              Delete Test Drive
            </AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>

      {/* Phones: details, then status and client, then the timeline; wide screens: the side column on the right. */}
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <CarFront className="size-4 text-muted-foreground" aria-hidden="true" />
              Test Drive Details
            </CardTitle>
          </CardHeader>
          <CardContent>
            {editing ? (
              <form onSubmit={(e) => void save(e)} noValidate className="grid gap-5" aria-label="Edit test drive">
                <div className="grid gap-5 sm:grid-cols-2">
                  <FormField label="Vehicle driven" error={errors.vehicleDriven?.message}>
                    <Input id="edit-vehicle" autoComplete="off" {...form.register("vehicleDriven")} />
                  </FormField>
                  <FormField label="Stock number" error={errors.stockNumber?.message}>
                    <Input id="edit-stock" autoComplete="off" {...form.register("stockNumber")} />
                  </FormField>
                  <FormField label="Test drive date" error={errors.testDriveDate?.message}>
                    <Input id="edit-date" type="date" min="2000-01-01" max="2100-12-31" {...form.register("testDriveDate")} />
                  </FormField>
                  <FormField label="Test drive time" error={errors.testDriveTime?.message}>
                    <Input id="edit-time" type="time" step={60} {...form.register("testDriveTime")} />
                  </FormField>
                </div>
                <FormField label="Notes" error={errors.notes?.message}>
                  <Textarea id="edit-notes" rows={4} {...form.register("notes")} />
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
              <dl className="grid gap-5 sm:grid-cols-2" data-testid="test-drive-information">
                <Field label="Vehicle driven">{drive.vehicleDriven ?? none("Not recorded")}</Field>
                <Field label="Stock number">{drive.stockNumber ? <span className="font-mono">{drive.stockNumber}</span> : none("Not recorded")}</Field>
                <Field label="Date">{drive.testDriveDate ? longDate(drive.testDriveDate) : none("Date TBD")}</Field>
                <Field label="Time">{drive.testDriveTime ? formatSlot(drive.testDriveTime) : none("Not set")}</Field>
                <Field label="Notes" className="sm:col-span-2">
                  {drive.notes ? <p className="whitespace-pre-wrap">{drive.notes}</p> : none("No notes")}
                </Field>
              </dl>
            )}
          </CardContent>
        </Card>

        <div className="grid content-start gap-6 lg:row-span-2">
          <Card>
            <CardHeader>
              <CardTitle>Status</CardTitle>
            </CardHeader>
            <CardContent>
              <Select value={detailStatusOf(drive.status)} disabled={editing || setStatus.isPending} onValueChange={(v) => changeStatus(v as TestDriveDetailStatus)}>
                <SelectTrigger aria-label="Test drive status" className="w-full" data-testid="status-select">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {TEST_DRIVE_DETAIL_STATUSES.map((s) => (
                    <SelectItem key={s} value={s}>
                      {TEST_DRIVE_DETAIL_STATUS_LABELS[s]}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Client</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3 text-sm" data-testid="test-drive-client">
              <p className="flex items-center gap-2 font-semibold">
                <UserRound className="size-4 text-muted-foreground" aria-hidden="true" />
                {client}
              </p>
              {drive.email && (
                <a href={`mailto:${drive.email}`} className="flex min-w-0 items-center gap-2 text-primary hover:underline">
                  <Mail className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <span className="truncate">{drive.email}</span>
                </a>
              )}
              {drive.phone && (
                <a href={phoneHref(drive.phone) ?? undefined} className="flex items-center gap-2 tabular-nums text-primary hover:underline">
                  <Phone className="size-4 text-muted-foreground" aria-hidden="true" />
                  {formatPhone(drive.phone)}
                </a>
              )}
              {drive.leadId && (
                <Button asChild variant="outline" size="sm" className="mt-1 w-fit">
                  <Link to={`/leads/detail/${drive.leadId}`}>View lead</Link>
                </Button>
              )}
            </CardContent>
          </Card>
        </div>

        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>Timeline</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid gap-5 sm:grid-cols-3" data-testid="test-drive-timeline">
              <Field label="Taken out">
                {formatInstant(drive.takenOutAt, timezone)}
                {drive.takenOutByName && <span className="block text-xs text-muted-foreground">by {drive.takenOutByName}</span>}
              </Field>
              <Field label="Returned">{formatInstant(drive.returnedAt, timezone)}</Field>
              <Field label="Duration">
                {drive.duration !== null ? (
                  <span className="tabular-nums">{formatDuration(drive.duration)}</span>
                ) : out && drive.takenOutAt ? (
                  <span className="text-sm text-warning-foreground">
                    Out <OutSince takenOutAt={drive.takenOutAt} timezone={timezone} />
                  </span>
                ) : (
                  none("—")
                )}
              </Field>
            </dl>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
