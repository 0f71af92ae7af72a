import { Link } from "react-router";
import { format } from "date-fns";
import { Clock, MailPlus, MoreHorizontal, RefreshCw, Shield, Trash2, UserMinus, UserPlus, Users } from "lucide-react";
import { useState, type ReactNode } from "react";
import { DEALERSHIP_ROLES, ROLE_LABELS, type DealershipRole } from "../../shared/constants";
import { fullName } from "../../shared/format";
import type { DealershipMember, Invitation } from "../../shared/schemas/responses/team";
import { useAuth } from "../auth/auth-provider";
import { EmptyState } from "../components/page-header";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../components/ui/alert-dialog";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "../components/ui/dropdown-menu";
import { Label } from "../components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { cn, initialsOf } from "../lib/utils";
import { useChangeRole, useDeleteInvitation, useInvitations, useMembers, useRemoveUser, useResendInvitation } from "./api";
import { InviteUserDialog } from "./InviteUserDialog";

const ROW = "grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-2 px-4 py-3.5 sm:px-6 md:grid-cols-[minmax(0,2.2fr)_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1.2fr)_2.5rem]";
const day = (iso: string) => format(new Date(iso), "MMM d, yyyy");

const roleVariant = (role: DealershipRole) => (role === "management" ? "primary" : role === "frontDesk" ? "warning" : "secondary");

function Person({ name, email, initials, pending }: { name: string; email: string; initials: string; pending?: boolean }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <span
        className={cn(
          "flex size-10 shrink-0 items-center justify-center rounded-full text-sm font-semibold",
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

function RowMenu({ label, children }: { label: string; children: ReactNode }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={label} className="justify-self-end md:order-last">
          <MoreHorizontal />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-44">
        {children}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** Users tab (part 2 §2): members and pending invitations, with their actions. */
export function UsersTab({ dealershipId, dealershipName }: { dealershipId: string; dealershipName: string }) {
  const { user } = useAuth();
  const unproven = Boolean(user && !user.emailVerifiedAt);
  const members = useMembers(dealershipId);
  const invitations = useInvitations(dealershipId);
  const resend = useResendInvitation(dealershipId);
  const remove = useDeleteInvitation(dealershipId);
  const [inviteOpen, setInviteOpen] = useState(false);
  const [roleTarget, setRoleTarget] = useState<DealershipMember | null>(null);
  const [removeTarget, setRemoveTarget] = useState<DealershipMember | null>(null);

  const memberList = members.data ?? [];
  const inviteList = invitations.data ?? [];
  const loading = members.isPending || invitations.isPending;
  const count = memberList.length + inviteList.length;

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b">
        <div className="min-w-0">
          <CardTitle className="flex items-center gap-2">
            Users
            {!loading && (
              <Badge variant="secondary" data-testid="users-count" aria-label={`${count} users`}>
                {count}
              </Badge>
            )}
          </CardTitle>
          <CardDescription className="mt-1">Everyone with access to {dealershipName}, and people you have invited.</CardDescription>
        </div>
        <Button onClick={() => setInviteOpen(true)} disabled={unproven}>
          <UserPlus aria-hidden="true" />
          Invite User
        </Button>
        {/* The server refuses invitations from an unproven address (decision 193): say why before anyone tries. */}
        {unproven && (
          <p className="basis-full text-sm text-muted-foreground" data-testid="verify-to-invite">
            Verify your e-mail address before you invite people:{" "}
            <Link to="/profile" className="font-medium text-primary underline underline-offset-4">
              Profile → Verify E-mail
            </Link>{" "}
            sends you a 6-digit code.
          </p>
        )}
      </CardHeader>

      {loading ? (
        <div className="grid gap-3 p-6" role="status" aria-busy="true" aria-label="Loading users">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </div>
      ) : count === 0 ? (
        <CardContent className="pt-6">
          <EmptyState
            icon={<Users />}
            title="No users yet"
            action={
              <Button onClick={() => setInviteOpen(true)}>
                <MailPlus aria-hidden="true" />
                Invite First User
              </Button>
            }
          >
            Invite your sales associates, front desk and managers to start working leads together.
          </EmptyState>
        </CardContent>
      ) : (
        <div role="list" aria-label="Users">
          <div className={cn(ROW, "hidden border-b bg-muted/40 py-2.5 text-xs font-medium uppercase tracking-wide text-muted-foreground md:grid")} aria-hidden="true">
            <span>User</span>
            <span>Role</span>
            <span>Status</span>
            <span>Added</span>
            <span />
          </div>
          {memberList.map((m) => {
            const name = fullName(m.user) || m.user.email;
            const isMe = m.userId === user?.id;
            return (
              <div key={m.userId} role="listitem" aria-label={name} className={cn(ROW, "border-b last:border-b-0")}>
                <Person name={name} email={m.user.email} initials={initialsOf(m.user)} />
                <MemberMenu name={name} isMe={isMe} onChangeRole={() => setRoleTarget(m)} onRemove={() => setRemoveTarget(m)} />
                <div className="col-span-2 flex flex-wrap items-center gap-2 pl-[52px] md:contents">
                  <span>
                    <Badge variant={roleVariant(m.role)}>{ROLE_LABELS[m.role]}</Badge>
                  </span>
                  <span className="flex items-center gap-1.5">
                    <Badge variant="success">Active</Badge>
                    {isMe && <Badge variant="outline">You</Badge>}
                  </span>
                  <span className="w-full whitespace-nowrap text-[13px] text-muted-foreground md:w-auto">
                    <span className="md:hidden">Added </span>
                    {day(m.addedAt)}
                  </span>
                </div>
              </div>
            );
          })}
          {inviteList.map((invite) => (
            <InvitationRow
              key={invite.id}
              invite={invite}
              onResend={() => resend.mutate(invite)}
              onDelete={() => remove.mutate(invite)}
              busy={(resend.isPending && resend.variables?.id === invite.id) || (remove.isPending && remove.variables?.id === invite.id)}
            />
          ))}
        </div>
      )}

      <InviteUserDialog dealershipId={dealershipId} dealershipName={dealershipName} open={inviteOpen} onOpenChange={setInviteOpen} />
      <ChangeRoleDialog dealershipId={dealershipId} member={roleTarget} onClose={() => setRoleTarget(null)} />
      <RemoveUserDialog dealershipId={dealershipId} dealershipName={dealershipName} member={removeTarget} onClose={() => setRemoveTarget(null)} />
    </Card>
  );
}

function MemberMenu({ name, isMe, onChangeRole, onRemove }: { name: string; isMe: boolean; onChangeRole: () => void; onRemove: () => void }) {
  return (
    <RowMenu label={`Actions for ${name}`}>
      <DropdownMenuItem onSelect={onChangeRole}>
        <Shield /> Change Role
      </DropdownMenuItem>
      {!isMe && (
        <>
          <DropdownMenuSeparator />
          <DropdownMenuItem variant="destructive" onSelect={onRemove}>
            <UserMinus /> Remove User
          </DropdownMenuItem>
        </>
      )}
    </RowMenu>
  );
}

function InvitationRow({ invite, onResend, onDelete, busy }: { invite: Invitation; onResend: () => void; onDelete: () => void; busy: boolean }) {
  const name = fullName(invite) || invite.email;
  const expired = invite.status === "expired";
  return (
    <div role="listitem" aria-label={name} className={cn(ROW, "border-b bg-muted/20 last:border-b-0", busy && "opacity-60")}>
      <Person name={name} email={invite.email} initials={initialsOf(invite)} pending />
      <RowMenu label={`Actions for invitation to ${name}`}>
        <DropdownMenuItem onSelect={onResend}>
          <RefreshCw /> Resend
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="destructive" onSelect={onDelete}>
          <Trash2 /> Delete
        </DropdownMenuItem>
      </RowMenu>
      <div className="col-span-2 flex flex-wrap items-center gap-2 pl-[52px] md:contents">
        <span>
          <Badge variant={roleVariant(invite.role)}>{ROLE_LABELS[invite.role]}</Badge>
        </span>
        <span>
          {expired ? (
            <Badge variant="destructive">Expired</Badge>
          ) : (
            <Badge variant="warning">
              <Clock aria-hidden="true" /> Pending
            </Badge>
          )}
        </span>
        <span className="w-full text-[13px] text-muted-foreground md:w-auto">
          {expired ? `Expired ${day(invite.expiresAt)}` : `Invited ${day(invite.invitedAt)} · expires ${day(invite.expiresAt)}`}
        </span>
      </div>
    </div>
  );
}

function ChangeRoleDialog({ dealershipId, member, onClose }: { dealershipId: string; member: DealershipMember | null; onClose: () => void }) {
  const [role, setRole] = useState<DealershipRole | "">("");
  const change = useChangeRole(dealershipId);
  const name = member ? fullName(member.user) || member.user.email : "";
  return (
    <Dialog
      open={member !== null}
      onOpenChange={(open) => {
        if (!open) {
          onClose();
          setRole("");
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change Role</DialogTitle>
          <DialogDescription>
            {name} is currently {member ? ROLE_LABELS[member.role] : ""}. The new role applies immediately.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="change-role">New role</Label>
          <Select value={role} onValueChange={(v) => setRole(v as DealershipRole)}>
            <SelectTrigger id="change-role">
              <SelectValue placeholder="Select a role" />
            </SelectTrigger>
            <SelectContent>
              {DEALERSHIP_ROLES.map((r) => (
                <SelectItem key={r} value={r}>
                  {ROLE_LABELS[r]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!role || change.isPending}
            onClick={() =>
              member &&
              role &&
              change.mutate(
                { userId: member.userId, role, name },
                {
                  onSuccess: () => {
                    onClose();
                    setRole("");
                  },
                },
              )
            }
          >
            {change.isPending && <Spinner />}
            Update Role
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function RemoveUserDialog({
  dealershipId,
  dealershipName,
  member,
  onClose,
}: {
  dealershipId: string;
  dealershipName: string;
  member: DealershipMember | null;
  onClose: () => void;
}) {
  const removeUser = useRemoveUser(dealershipId);
  const name = member ? fullName(member.user) || member.user.email : "";
  return (
    <AlertDialog open={member !== null} onOpenChange={(open) => !open && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Remove User</AlertDialogTitle>
          <AlertDialogDescription>
            Remove {name} from {dealershipName}? This action cannot be undone. They lose access immediately, and any leads they
            have claimed go back to New Leads.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={removeUser.isPending}
            onClick={() => member && removeUser.mutate({ userId: member.userId, name }, { onSettled: onClose })}
          >
            {removeUser.isPending && <Spinner />}
            Remove User
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
