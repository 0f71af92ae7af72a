import { BadgeCheck, MailWarning, Pencil } from "lucide-react";
import { useState } from "react";
import { profileFormSchema } from "../../shared/schemas/profile";
import type { CurrentUser } from "../../shared/schemas/responses/auth";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Spinner } from "../components/ui/spinner";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useUpdateProfile } from "./api";
import { VerifyEmailDialog } from "./EmailDialogs";

function memberSince(createdAt: string | null | undefined): string {
  const date = createdAt ? new Date(createdAt) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" }) : "N/A";
}

/**
 * Personal Information (part 2 §2): names and e-mail after "Edit Profile"; User ID and Member Since read-only. Saving
 * stores the names; a new e-mail goes on to the Change E-mail dialog (`onEmailChange`), which changes it only once the
 * new address has proved itself (decision 169). An unproven address shows "Not verified" and Verify E-mail.
 */
export function PersonalInformationCard({ user, onEmailChange }: { user: CurrentUser; onEmailChange: (email: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const update = useUpdateProfile();
  const defaults = { firstName: user.firstName ?? "", lastName: user.lastName ?? "", email: user.email };
  const form = useZodForm(profileFormSchema, { defaultValues: defaults });
  const { errors } = form.formState;

  function cancel() {
    form.reset(defaults);
    setEditing(false);
  }

  const submit = form.handleSubmit(({ firstName, lastName, email }) => {
    const emailChanged = email !== user.email;
    const done = () => {
      form.reset({ ...defaults, firstName, lastName });
      setEditing(false);
      if (emailChanged) onEmailChange(email);
    };
    if (firstName === defaults.firstName && lastName === defaults.lastName) return done();
    update.mutate(
      { firstName, lastName },
      {
        onSuccess: done,
        onError: (error) => {
          if (!applyServerFieldErrors(form, error)) {
            toast({ title: "Update Failed", description: serverMessage(error, "Failed to update profile"), variant: "destructive" });
          }
        },
      },
    );
  });

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>Personal Information</CardTitle>
          <CardDescription>Your name and the e-mail you sign in with.</CardDescription>
        </div>
        {!editing && (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            <Pencil aria-hidden="true" /> Edit Profile
          </Button>
        )}
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" noValidate onSubmit={submit}>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="First Name" error={errors.firstName?.message}>
              <Input id="profile-first-name" autoComplete="given-name" disabled={!editing} {...form.register("firstName")} />
            </FormField>
            <FormField label="Last Name" error={errors.lastName?.message}>
              <Input id="profile-last-name" autoComplete="family-name" disabled={!editing} {...form.register("lastName")} />
            </FormField>
          </div>
          <FormField
            label="Email Address"
            error={errors.email?.message}
            hint={editing ? "A new address is confirmed with your password and a code we send to it." : undefined}
          >
            <Input id="profile-email" type="email" inputMode="email" autoComplete="email" disabled={!editing} {...form.register("email")} />
          </FormField>
          {!editing && (
            <div className="-mt-1 flex flex-wrap items-center gap-2" data-testid="email-verification">
              {user.emailVerifiedAt ? (
                <Badge variant="success">
                  <BadgeCheck aria-hidden="true" /> Verified
                </Badge>
              ) : (
                <>
                  <Badge variant="warning">
                    <MailWarning aria-hidden="true" /> Not verified
                  </Badge>
                  <Button variant="link" size="sm" className="h-auto px-0" onClick={() => setVerifying(true)}>
                    Verify E-mail
                  </Button>
                </>
              )}
            </div>
          )}
          {/* Facts, not fields: read-only inputs looked editable, and a bare User ID said nothing to a salesperson (issue 30). */}
          <dl className="grid gap-4 text-sm sm:grid-cols-2">
            <div>
              <dt className="font-medium">Member Since</dt>
              <dd className="mt-1 text-muted-foreground" data-testid="profile-member-since">
                {memberSince(user.createdAt)}
              </dd>
            </div>
            <div>
              <dt className="font-medium">User ID</dt>
              <dd className="mt-1 text-muted-foreground" data-testid="profile-user-id">
                <span className="break-all font-mono text-xs text-foreground">{user.id}</span>
                <span className="block text-xs">Quote it if you contact support.</span>
              </dd>
            </div>
          </dl>
          {editing && (
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="ghost" onClick={cancel} disabled={update.isPending}>
                Cancel
              </Button>
              <Button type="submit" disabled={update.isPending}>
                {update.isPending && <Spinner />}
                {update.isPending ? "Saving..." : "Save Changes"}
              </Button>
            </div>
          )}
        </form>
      </CardContent>
      <VerifyEmailDialog open={verifying} email={user.email} onClose={() => setVerifying(false)} />
    </Card>
  );
}
