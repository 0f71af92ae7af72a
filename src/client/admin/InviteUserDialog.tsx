import { UserPlus } from "lucide-react";
import { useState } from "react";
import { DEALERSHIP_ROLES, ROLE_LABELS, type DealershipRole } from "../../shared/constants";
import { INVITE_MISSING_INFORMATION, INVITE_VALID_DAYS, inviteSchema } from "../../shared/schemas/team";
import { Button } from "../components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { FormField } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Spinner } from "../components/ui/spinner";
import { fieldErrors } from "../lib/api";
import { toast } from "../lib/toast";
import { useInviteUser } from "./api";

interface Draft {
  email: string;
  firstName: string;
  lastName: string;
  role: DealershipRole | "";
}
const EMPTY: Draft = { email: "", firstName: "", lastName: "", role: "" };

/** "Invite User" (part 2 §2, §5): e-mail, first name, last name and role, all required. */
export function InviteUserDialog({ dealershipId, dealershipName, open, onOpenChange }: { dealershipId: string; dealershipName: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const invite = useInviteUser(dealershipId);
  const set = (field: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [field]: value }));

  function close(next: boolean) {
    onOpenChange(next);
    if (!next) {
      setDraft(EMPTY);
      setErrors({});
    }
  }

  function submit() {
    if (!draft.email.trim() || !draft.firstName.trim() || !draft.lastName.trim() || !draft.role) {
      toast({ title: "Missing Information", description: INVITE_MISSING_INFORMATION, variant: "destructive" });
      return;
    }
    const parsed = inviteSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    invite.mutate(parsed.data, {
      onSuccess: () => close(false),
      onError: (error) => setErrors(fieldErrors(error)),
    });
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Invite User</DialogTitle>
          <DialogDescription>
            We'll e-mail them a link to join {dealershipName}. The invitation is valid for {INVITE_VALID_DAYS} days.
          </DialogDescription>
        </DialogHeader>
        <form
          id="invite-user-form"
          className="grid gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <FormField label="Email" error={errors.email}>
            <Input id="invite-email" type="email" inputMode="email" autoComplete="off" placeholder="name@dealership.com" value={draft.email} onChange={(e) => set("email")(e.target.value)} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="First name" error={errors.firstName}>
              <Input id="invite-first-name" autoComplete="off" value={draft.firstName} onChange={(e) => set("firstName")(e.target.value)} />
            </FormField>
            <FormField label="Last name" error={errors.lastName}>
              <Input id="invite-last-name" autoComplete="off" value={draft.lastName} onChange={(e) => set("lastName")(e.target.value)} />
            </FormField>
          </div>
          <FormField label="Role" error={errors.role}>
            <Select value={draft.role} onValueChange={set("role")}>
              <SelectTrigger id="invite-role" aria-label="Role">
                <SelectValue placeholder="Select a role" />
              </SelectTrigger>
              <SelectContent>
                {DEALERSHIP_ROLES.map((role) => (
                  <SelectItem key={role} value={role}>
                    {ROLE_LABELS[role]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
        </form>
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" form="invite-user-form" disabled={invite.isPending}>
            {invite.isPending ? <Spinner /> : <UserPlus aria-hidden="true" />}
            Send Invitation
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
