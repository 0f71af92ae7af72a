import { Pencil, ShieldCheck, ShieldOff, Trash2, UserCog, Users } from "lucide-react";
import { useState } from "react";
import { ROLE_LABELS } from "../../shared/constants";
import { fullName } from "../../shared/format";
import { CANNOT_DELETE_SELF, grantAdminSchema, platformUserUpdateSchema } from "../../shared/schemas/platform";
import type { PlatformUser } from "../../shared/schemas/responses/platform";
import { useAuth } from "../auth/auth-provider";
import { EmptyState } from "../components/page-header";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Label } from "../components/ui/label";
import { PhoneInput } from "../components/ui/phone-input";
import { SearchInput } from "../components/ui/search-input";
import { Segmented } from "../components/ui/segmented";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { Switch } from "../components/ui/switch";
import { toast } from "../lib/toast";
import { cn, initialsOf } from "../lib/utils";
import { useDeleteUser, useGrantAdmin, useRevokeAdmin, useUpdateUser, useUsers } from "./api";
import { ConfirmDialog, Pager, useSettled } from "./parts";
import { formatPhone } from "../../shared/phone";

// The Users tab (part 2 §2): grant admin by e-mail; the platform administrators (or every user) with their dealership
// assignments; Edit, Delete and Revoke Admin, the last two unavailable for oneself (§5, §8 "Cannot Delete").

type Show = "admins" | "all";

/** Grant admin by e-mail (part 2 §5: a non-empty e-mail). */
export function GrantAdminForm({ onGranted, autoFocus }: { onGranted?: () => void; autoFocus?: boolean }) {
  const grant = useGrantAdmin();
  const form = useZodForm(grantAdminSchema, { defaultValues: { email: "" } });
  const error = form.formState.errors.email?.message;
  const submit = form.handleSubmit(async ({ email }) => {
    try {
      await grant.mutateAsync({ email });
      form.reset({ email: "" });
      onGranted?.();
    } catch (e) {
      applyServerFieldErrors(form, e);
    }
  });
  return (
    <form className="flex flex-col gap-2 sm:flex-row sm:items-start" noValidate onSubmit={(e) => void submit(e)} aria-label="Grant platform admin">
      <FormField label="Email" error={error} className="flex-1 [&>label]:sr-only">
        <Input id="grant-admin-email" type="email" inputMode="email" autoComplete="off" autoFocus={autoFocus} placeholder="Email of an existing user" {...form.register("email")} />
      </FormField>
      <Button type="submit" disabled={grant.isPending}>
        {grant.isPending ? <Spinner /> : <ShieldCheck aria-hidden="true" />}
        Grant Admin
      </Button>
    </form>
  );
}

export function GrantAdminDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Grant Platform Admin</DialogTitle>
          <DialogDescription>Platform admins run every dealership, user and admin of this installation. The person needs an account.</DialogDescription>
        </DialogHeader>
        <GrantAdminForm autoFocus onGranted={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

export function UsersTab() {
  const { user: me } = useAuth();
  const [show, setShow] = useState<Show>("admins");
  const [search, setSearch] = useState("");
  const settled = useSettled(search);
  const [page, setPage] = useState(1);
  const users = useUsers(show, settled, page);
  const [editing, setEditing] = useState<PlatformUser | null>(null);
  const [deleting, setDeleting] = useState<PlatformUser | null>(null);
  const [revoking, setRevoking] = useState<PlatformUser | null>(null);
  const remove = useDeleteUser();
  const revoke = useRevokeAdmin();

  const data = users.data;
  const refuseSelf = () => toast({ title: "Cannot Delete", description: CANNOT_DELETE_SELF, variant: "destructive" });

  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader className="border-b">
          <CardTitle>Grant Platform Admin</CardTitle>
          <CardDescription className="mt-1">Give an existing user access to platform administration.</CardDescription>
        </CardHeader>
        <CardContent className="pt-5 sm:pt-5">
          <GrantAdminForm />
        </CardContent>
      </Card>

      <Card className="overflow-hidden">
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3 border-b">
          <div className="min-w-0">
            <CardTitle className="flex items-center gap-2">
              {show === "admins" ? "Platform Administrators" : "All Users"}
              {data && (
                <Badge variant="secondary" data-testid="users-count">
                  {data.total.toLocaleString("en-US")}
                </Badge>
              )}
            </CardTitle>
            <CardDescription className="mt-1">With the dealerships each one belongs to, and their role there.</CardDescription>
          </div>
          <Segmented
            label="Show"
            value={show}
            onChange={(value) => {
              setShow(value);
              setPage(1);
            }}
            className="w-full sm:w-80"
            options={[
              { value: "admins", label: "Platform admins" },
              { value: "all", label: "All users" },
            ]}
          />
        </CardHeader>
        <div className="border-b px-4 py-3 sm:px-6">
          <SearchInput
            value={search}
            onValueChange={(value) => {
              setSearch(value);
              setPage(1);
            }}
            placeholder="Search by name, e-mail or phone..." label="Search users" />
        </div>

        {users.isPending ? (
          <div className="grid gap-3 p-4 sm:p-6" role="status" aria-busy="true" aria-label="Loading users">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-16" />
            ))}
          </div>
        ) : !data || data.items.length === 0 ? (
          <EmptyState icon={<Users />} title="No users found">
            {settled ? "Nobody matches this search." : "There is nobody to show here yet."}
          </EmptyState>
        ) : (
          <ul aria-label="Users" className={cn("divide-y", users.isPlaceholderData && "opacity-60")}>
            {data.items.map((u) => {
              const isMe = u.id === me?.id;
              return (
                <UserRow
                  key={u.id}
                  user={u}
                  isMe={isMe}
                  onEdit={() => setEditing(u)}
                  onDelete={() => (isMe ? refuseSelf() : setDeleting(u))}
                  onRevoke={() => (isMe ? refuseSelf() : setRevoking(u))}
                />
              );
            })}
          </ul>
        )}
        {data && <Pager label="Users" page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />}
      </Card>

      <EditUserDialog user={editing} isMe={editing?.id === me?.id} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete User"
        confirmLabel="Delete User"
        pending={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting, { onSettled: () => setDeleting(null) })}
      >
        <p>
          Delete {deleting ? fullName(deleting) || deleting.email : ""}'s account? This action cannot be undone. They are removed from every
          dealership and signed out, and their claimed leads return to unclaimed.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke Admin"
        confirmLabel="Revoke Admin"
        pending={revoke.isPending}
        onClose={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate({ user: revoking }, { onSettled: () => setRevoking(null) })}
      >
        <p>{revoking ? fullName(revoking) || revoking.email : ""} will no longer reach platform administration, from their next click on.</p>
      </ConfirmDialog>
    </div>
  );
}

function UserRow({ user, isMe, onEdit, onDelete, onRevoke }: { user: PlatformUser; isMe: boolean; onEdit: () => void; onDelete: () => void; onRevoke: () => void }) {
  const name = fullName(user) || user.email;
  return (
    <li aria-label={name} className="grid gap-3 px-4 py-4 md:grid-cols-[minmax(0,1fr)_auto] md:items-center sm:px-6">
      <div className="flex min-w-0 items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary/10 text-sm font-semibold text-primary" aria-hidden="true">
          {initialsOf(user)}
        </span>
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <span className="truncate font-semibold">{name}</span>
            {user.isAdmin && (
              <Badge variant="primary">
                <ShieldCheck aria-hidden="true" /> {ROLE_LABELS.superAdmin}
              </Badge>
            )}
            {isMe && <Badge variant="outline">You</Badge>}
          </div>
          <div className="truncate text-[13px] text-muted-foreground">
            {user.email}
            {user.phone ? ` · ${formatPhone(user.phone)}` : ""}
          </div>
          <div className="mt-2 flex flex-wrap gap-1.5" aria-label={`Dealerships of ${name}`}>
            {user.dealerships.length === 0 ? (
              <span className="text-[13px] text-muted-foreground">No dealership assignments</span>
            ) : (
              user.dealerships.map((d) => (
                <Badge key={d.id} variant="secondary" className="max-w-full">
                  <span className="truncate">{d.name}</span> · {ROLE_LABELS[d.role]}
                </Badge>
              ))
            )}
          </div>
        </div>
      </div>
      <div className="flex flex-wrap gap-2 pl-[52px] md:pl-0">
        <Button size="sm" variant="outline" onClick={onEdit} aria-label={`Edit ${name}`}>
          <Pencil aria-hidden="true" /> Edit
        </Button>
        {user.isAdmin && (
          <Button
            size="sm"
            variant="outline"
            aria-disabled={isMe || undefined}
            className={cn(isMe && "cursor-not-allowed opacity-55")}
            onClick={onRevoke}
            aria-label={`Revoke admin from ${name}`}
          >
            <ShieldOff aria-hidden="true" /> Revoke Admin
          </Button>
        )}
        <Button
          size="sm"
          variant="outline"
          aria-disabled={isMe || undefined}
          className={cn("text-destructive hover:text-destructive", isMe && "cursor-not-allowed opacity-55")}
          onClick={onDelete}
          aria-label={`Delete ${name}`}
        >
          <Trash2 aria-hidden="true" /> Delete
        </Button>
      </div>
    </li>
  );
}

/**
 * Edit (part 2 §4): when the admin flag changed, admin is granted or revoked first, then the details are saved.
 * One's own flag cannot be switched off (§5).
 */
function EditUserDialog({ user, isMe, onClose }: { user: PlatformUser | null; isMe: boolean; onClose: () => void }) {
  return (
    <Dialog open={user !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit User</DialogTitle>
          <DialogDescription>{user?.email}</DialogDescription>
        </DialogHeader>
        {user && <EditUserForm key={user.id} user={user} isMe={isMe} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function EditUserForm({ user, isMe, onClose }: { user: PlatformUser; isMe: boolean; onClose: () => void }) {
  const update = useUpdateUser();
  const grant = useGrantAdmin();
  const revoke = useRevokeAdmin();
  const [isAdmin, setIsAdmin] = useState(user.isAdmin);
  const form = useZodForm(platformUserUpdateSchema, {
    defaultValues: { firstName: user.firstName ?? "", lastName: user.lastName ?? "", email: user.email, phone: formatPhone(user.phone) },
  });
  const { errors } = form.formState;

  const pending = update.isPending || grant.isPending || revoke.isPending;
  const submit = form.handleSubmit(async (values) => {
    try {
      if (isAdmin !== user.isAdmin) {
        if (isAdmin) await grant.mutateAsync({ email: user.email, quiet: true });
        else await revoke.mutateAsync({ user, quiet: true });
      }
      await update.mutateAsync({ id: user.id, input: values });
      onClose();
    } catch (error) {
      applyServerFieldErrors(form, error);
    }
  });

  return (
    <>
      <form id="edit-user-form" className="grid gap-4" noValidate onSubmit={(e) => void submit(e)}>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="First name" error={errors.firstName?.message}>
            <Input id="edit-user-first-name" autoComplete="off" {...form.register("firstName")} />
          </FormField>
          <FormField label="Last name" error={errors.lastName?.message}>
            <Input id="edit-user-last-name" autoComplete="off" {...form.register("lastName")} />
          </FormField>
        </div>
        <FormField label="Email" required error={errors.email?.message}>
          <Input id="edit-user-email" type="email" inputMode="email" autoComplete="off" {...form.register("email")} />
        </FormField>
        <FormField label="Phone" error={errors.phone?.message}>
          <PhoneInput id="edit-user-phone" autoComplete="off" registration={form.register("phone")} />
        </FormField>
        <div className="flex items-center justify-between gap-4 rounded-lg border p-3">
          <div>
            <Label htmlFor="edit-user-admin" className="flex items-center gap-1.5">
              <UserCog className="size-4" aria-hidden="true" /> Platform admin
            </Label>
            <p className="mt-1 text-xs text-muted-foreground">{isMe ? "You cannot revoke your own admin access." : "Access to platform administration."}</p>
          </div>
          <Switch id="edit-user-admin" checked={isAdmin} disabled={isMe && user.isAdmin} onCheckedChange={setIsAdmin} />
        </div>
      </form>
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" form="edit-user-form" disabled={pending}>
          {pending && <Spinner />}
          Save Changes
        </Button>
      </DialogFooter>
    </>
  );
}
