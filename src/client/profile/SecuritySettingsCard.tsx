import { KeyRound } from "lucide-react";
import { useState } from "react";
import { passwordChangeFormSchema } from "../../shared/schemas/profile";
import type { CurrentUser } from "../../shared/schemas/responses/auth";
import { PasswordInput } from "../auth/PasswordInput";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Spinner } from "../components/ui/spinner";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useChangePassword } from "./api";

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

function lastChanged(at: string | null): string {
  if (!at) return "Not available";
  return new Date(at).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });
}

/** Security Settings (part 2 §2): "Change Password" opens the form; collapsed, when it was last changed. */
export function SecuritySettingsCard({ user }: { user: CurrentUser }) {
  const [open, setOpen] = useState(false);
  const change = useChangePassword();
  const form = useZodForm(passwordChangeFormSchema, { defaultValues: EMPTY });
  const { errors } = form.formState;

  function close() {
    form.reset(EMPTY);
    setOpen(false);
  }

  const submit = form.handleSubmit(({ currentPassword, newPassword }) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: close,
        // part 2 §8: the toast with the server's message; a field it names is marked too.
        onError: (error) => {
          applyServerFieldErrors(form, error);
          toast({ title: "Password Change Failed", description: serverMessage(error, "Failed to change password"), variant: "destructive" });
        },
      },
    ),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Security Settings</CardTitle>
        <CardDescription>Your password. Changing it signs out your other devices.</CardDescription>
      </CardHeader>
      <CardContent>
        {!open ? (
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <p className="text-sm font-medium" data-testid="password-last-changed">
                Last changed: {lastChanged(user.passwordChangedAt)}
              </p>
              <p className="mt-1 text-sm text-muted-foreground">We recommend changing your password regularly to keep your account secure.</p>
            </div>
            <Button variant="outline" onClick={() => setOpen(true)}>
              <KeyRound aria-hidden="true" /> Change Password
            </Button>
          </div>
        ) : (
          <form className="grid gap-4" noValidate onSubmit={submit}>
            <FormField label="Current Password" error={errors.currentPassword?.message}>
              <PasswordInput id="current-password" autoComplete="current-password" {...form.register("currentPassword")} />
            </FormField>
            <FormField label="New Password" error={errors.newPassword?.message}>
              <PasswordInput id="new-password" autoComplete="new-password" {...form.register("newPassword")} />
            </FormField>
            <FormField label="Confirm New Password" error={errors.confirmPassword?.message}>
              <PasswordInput id="confirm-new-password" autoComplete="new-password" {...form.register("confirmPassword")} />
            </FormField>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="ghost" onClick={close} disabled={change.isPending}>
                Cancel
              </Button>
              <Button type="submit" disabled={change.isPending}>
                {change.isPending && <Spinner />}
                {change.isPending ? "Changing..." : "Change Password"}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
