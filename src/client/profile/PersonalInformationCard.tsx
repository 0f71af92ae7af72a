import { Pencil } from "lucide-react";
import { useState } from "react";
import { profileSchema } from "../../shared/schemas/profile";
import type { CurrentUser } from "../../shared/schemas/responses/auth";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Spinner } from "../components/ui/spinner";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useUpdateProfile } from "./api";

function memberSince(createdAt: string | null | undefined): string {
  const date = createdAt ? new Date(createdAt) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" }) : "N/A";
}

/** Personal Information (part 2 §2): names and e-mail after "Edit Profile"; User ID and Member Since read-only. */
export function PersonalInformationCard({ user }: { user: CurrentUser }) {
  const [editing, setEditing] = useState(false);
  const update = useUpdateProfile();
  const defaults = { firstName: user.firstName ?? "", lastName: user.lastName ?? "", email: user.email };
  const form = useZodForm(profileSchema, { defaultValues: defaults });
  const { errors } = form.formState;

  function cancel() {
    form.reset(defaults);
    setEditing(false);
  }

  const submit = form.handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: (saved) => {
        form.reset({ firstName: saved.firstName ?? "", lastName: saved.lastName ?? "", email: saved.email });
        setEditing(false);
      },
      onError: (error) => {
        if (!applyServerFieldErrors(form, error)) {
          toast({ title: "Update Failed", description: serverMessage(error, "Failed to update profile"), variant: "destructive" });
        }
        if (error.message.startsWith("409")) form.setError("email", { type: "server", message: serverMessage(error, "") });
      },
    }),
  );

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
          <FormField label="Email Address" error={errors.email?.message}>
            <Input id="profile-email" type="email" inputMode="email" autoComplete="email" disabled={!editing} {...form.register("email")} />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="User ID">
              <Input id="profile-user-id" value={user.id} readOnly className="font-mono text-xs text-muted-foreground" />
            </FormField>
            <FormField label="Member Since">
              <Input id="profile-member-since" value={memberSince(user.createdAt)} readOnly className="text-muted-foreground" />
            </FormField>
          </div>
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
    </Card>
  );
}
