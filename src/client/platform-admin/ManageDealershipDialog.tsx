import { format } from "date-fns";
import { Clock, MailPlus, RefreshCw, Trash2, UserMinus, Users } from "lucide-react";
import { useState } from "react";
import { DEALERSHIP_ROLES, ROLE_LABELS, type DealershipRole } from "../../shared/constants";
import { fullName } from "../../shared/format";
import { platformInviteSchema } from "../../shared/schemas/platform";
import type { PlatformDealership } from "../../shared/schemas/responses/platform";
import type { DealershipMember } from "../../shared/schemas/responses/team";
import { INVITE_VALID_DAYS } from "../../shared/schemas/team";
import { EmptyState } from "../components/page-header";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../components/ui/tabs";
import { cn, initialsOf } from "../lib/utils";
import { useChangeMemberRole, useDeleteInvitation, useInvitations, useInvite, useMembers, useRemoveMember, useResendInvitation } from "./api";
import { DealershipDetails } from "./DealershipForms";
import { ConfirmDialog } from "./parts";

// The Manage dialog of a dealership (part 2 §2): Details, Users (change role, remove), Invites (invite; pending list
// with Resend and delete, sent and expiry dates). The server runs the admin panel's own rules.

const day = (iso: string) => format(new Date(iso), "MMM d, yyyy");

export function ManageDealershipDialog({ dealership, onClose }: { dealership: PlatformDealership | null; onClose: () => void }) {
  return (
    <Dialog open={dealership !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        {dealership && (
          <>
            <DialogHeader>
              <DialogTitle>Manage {dealership.name}</DialogTitle>
              <DialogDescription>Created {day(dealership.createdAt)}</DialogDescription>
            </DialogHeader>
            <Tabs defaultValue="details" className="min-w-0">
              <TabsList className="w-full">
                <TabsTrigger value="details" className="flex-1">
                  Details
                </TabsTrigger>
                <TabsTrigger value="users" className="flex-1">
                  Users
                </TabsTrigger>
                <TabsTrigger value="invites" className="flex-1">
                  Invites
                </TabsTrigger>
              </TabsList>
              <TabsContent value="details">
                <DealershipDetails key={dealership.id} dealership={dealership} onDeleted={onClose} />
              </TabsContent>
              <TabsContent value="users" className="min-w-0">
                <MembersPanel dealershipId={dealership.id} dealershipName={dealership.name} />
              </TabsContent>
              <TabsContent value="invites" className="min-w-0">
                <InvitesPanel dealershipId={dealership.id} />
              </TabsContent>
            </Tabs>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function Person({ name, email, initials, pending }: { name: string; email: string; initials: string; pending?: boolean }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <span
        className={cn(
          "flex size-9 shrink-0 items-center justify-center rounded-full text-[13px] font-semibold",
          pending ? "border border-dashed border-muted-foreground/40 text-muted-foreground" : "bg-primary/10 text-primary",
        )}
        aria-hidden="true"
      >
        {initials}
      </span>
      <div className="min-w-0">
        <div className="truncate text-sm font-semibold">{name}</div>
        <div className="truncate text-[13px] text-muted-foreground">{email}</div>
      </div>
    </div>
  );
}

function ListSkeleton() {
  return (
    <div className="grid gap-2" aria-busy="true">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-14" />
      ))}
    </div>
  );
}

function MembersPanel({ dealershipId, dealershipName }: { dealershipId: string; dealershipName: string }) {
  const members = useMembers(dealershipId);
  const [removing, setRemoving] = useState<DealershipMember | null>(null);
  const remove = useRemoveMember(dealershipId);

  if (members.isPending) return <ListSkeleton />;
  const list = members.data ?? [];
  if (list.length === 0) {
    return (
      <EmptyState icon={<Users />} title="No users yet" className="py-8">
        Invite the dealership's team from the Invites tab.
      </EmptyState>
    );
  }
  const removingName = removing ? fullName(removing.user) || removing.user.email : "";
  return (
    <>
      <ul className="grid divide-y rounded-lg border" aria-label="Dealership users">
        {list.map((m) => (
          <MemberRow key={m.userId} dealershipId={dealershipId} member={m} onRemove={() => setRemoving(m)} />
        ))}
      </ul>
      <ConfirmDialog
        open={removing !== null}
        title="Remove User"
        confirmLabel="Remove User"
        pending={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ userId: removing.userId, name: removingName }, { onSettled: () => setRemoving(null) })}
      >
        <p>
          Remove {removingName} from {dealershipName}? This action cannot be undone. They lose access immediately, and their claimed leads
          return to unclaimed.
        </p>
      </ConfirmDialog>
    </>
  );
}

function MemberRow({ dealershipId, member, onRemove }: { dealershipId: string; member: DealershipMember; onRemove: () => void }) {
  const [role, setRole] = useState<DealershipRole>(member.role);
  const change = useChangeMemberRole(dealershipId);
  const name = fullName(member.user) || member.user.email;
  return (
    <li aria-label={name} className="grid grid-cols-[minmax(0,1fr)] gap-3 p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center">
      <Person name={name} email={member.user.email} initials={initialsOf(member.user)} />
      <div className="flex min-w-0 items-center gap-2">
        <Select value={role} onValueChange={(v) => setRole(v as DealershipRole)}>
          <SelectTrigger className="h-8 min-w-0 flex-1 sm:w-36 sm:flex-none" aria-label={`Role of ${name}`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {DEALERSHIP_ROLES.map((r) => (
              <SelectItem key={r} value={r}>
                {ROLE_LABELS[r]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {/* Part 2 §5: the platform's role change is disabled while the role is unchanged. */}
        <Button
          size="sm"
          variant={role === member.role ? "outline" : "default"}
          disabled={role === member.role || change.isPending}
          onClick={() => change.mutate({ userId: member.userId, role, name }, { onError: () => setRole(member.role) })}
        >
          {change.isPending && <Spinner />}
          Change<span className="hidden sm:inline"> Role</span>
        </Button>
        <Button size="icon-sm" variant="ghost" aria-label={`Remove ${name}`} onClick={onRemove}>
          <UserMinus className="text-destructive" />
        </Button>
      </div>
    </li>
  );
}

const EMPTY_INVITE = { email: "", role: "sales" as DealershipRole, firstName: "", lastName: "" };

function InvitesPanel({ dealershipId }: { dealershipId: string }) {
  const invitations = useInvitations(dealershipId);
  const invite = useInvite(dealershipId);
  const resend = useResendInvitation(dealershipId);
  const remove = useDeleteInvitation(dealershipId);
  const form = useZodForm(platformInviteSchema, { defaultValues: EMPTY_INVITE });
  const { errors } = form.formState;
  const role = form.watch("role") ?? "sales";

  const submit = form.handleSubmit(async (values) => {
    try {
      await invite.mutateAsync(values);
      form.reset(EMPTY_INVITE);
    } catch (error) {
      applyServerFieldErrors(form, error);
    }
  });

  const list = invitations.data ?? [];
  return (
    <div className="grid gap-5">
      <form className="grid gap-3 rounded-lg border p-4" noValidate onSubmit={(e) => void submit(e)} aria-label="Invite a user">
        <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_10rem]">
          <FormField label="Email" required error={errors.email?.message}>
            <Input id="platform-invite-email" type="email" inputMode="email" autoComplete="off" placeholder="name@dealership.com" {...form.register("email")} />
          </FormField>
          <FormField label="Role">
            <Select value={role} onValueChange={(v) => form.setValue("role", v as DealershipRole)}>
              <SelectTrigger id="platform-invite-role">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {DEALERSHIP_ROLES.map((r) => (
                  <SelectItem key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <FormField label="First name" error={errors.firstName?.message}>
            <Input id="platform-invite-first-name" autoComplete="off" {...form.register("firstName")} />
          </FormField>
          <FormField label="Last name" error={errors.lastName?.message}>
            <Input id="platform-invite-last-name" autoComplete="off" {...form.register("lastName")} />
          </FormField>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs text-muted-foreground">The invitation is valid for {INVITE_VALID_DAYS} days.</p>
          <Button type="submit" disabled={invite.isPending}>
            {invite.isPending ? <Spinner /> : <MailPlus aria-hidden="true" />}
            Send Invitation
          </Button>
        </div>
      </form>

      {invitations.isPending ? (
        <ListSkeleton />
      ) : list.length === 0 ? (
        <p className="py-4 text-center text-sm text-muted-foreground">No pending invitations.</p>
      ) : (
        <ul className="grid divide-y rounded-lg border" aria-label="Pending invitations">
          {list.map((i) => {
            const name = fullName(i) || i.email;
            const busy = (resend.isPending && resend.variables?.id === i.id) || (remove.isPending && remove.variables?.id === i.id);
            return (
              <li key={i.id} aria-label={name} className={cn("grid grid-cols-[minmax(0,1fr)] gap-3 p-3 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center", busy && "opacity-60")}>
                <div className="grid min-w-0 gap-1.5">
                  <Person name={name} email={i.email} initials={initialsOf(i)} pending />
                  <div className="flex flex-wrap items-center gap-2 pl-12 text-[13px] text-muted-foreground">
                    <Badge variant="secondary">{ROLE_LABELS[i.role]}</Badge>
                    {i.status === "expired" ? (
                      <Badge variant="destructive">Expired</Badge>
                    ) : (
                      <Badge variant="warning">
                        <Clock aria-hidden="true" /> Pending
                      </Badge>
                    )}
                    <span>
                      Sent {day(i.invitedAt)} · Expires {day(i.expiresAt)}
                    </span>
                  </div>
                </div>
                <div className="flex gap-2 pl-12 sm:pl-0">
                  <Button size="sm" variant="outline" disabled={busy} onClick={() => resend.mutate(i)}>
                    <RefreshCw aria-hidden="true" /> Resend
                  </Button>
                  <Button size="sm" variant="outline" disabled={busy} className="text-destructive hover:text-destructive" aria-label={`Delete the invitation to ${name}`} onClick={() => remove.mutate(i)}>
                    <Trash2 aria-hidden="true" />
                    <span className="sm:sr-only">Delete</span>
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
