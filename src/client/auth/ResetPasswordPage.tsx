import { useMutation } from "@tanstack/react-query";
import { CheckCircle2, KeyRound } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { PASSWORD_RESET_INVALID, passwordResetSchema } from "../../shared/schemas/profile";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import { useDocumentTitle } from "../components/page-header";
import { Brand } from "../components/shell/brand";
import { Button } from "../components/ui/button";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Spinner } from "../components/ui/spinner";
import { api, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { PasswordInput } from "./PasswordInput";

/** The token from /reset-password#token=…, read once; the address bar then drops it (it stays out of history). */
function takeToken(): string {
  const token = new URLSearchParams(window.location.hash.replace(/^#/, "")).get("token") ?? "";
  if (token) window.history.replaceState(window.history.state, "", window.location.pathname);
  return token;
}

/** /reset-password (issue 15; decision 083): choose a new password with the e-mailed link. */
export function ResetPasswordPage() {
  useDocumentTitle("Reset password");
  const [token] = useState(takeToken);
  const [done, setDone] = useState(false);
  const [linkProblem, setLinkProblem] = useState<string | null>(token ? null : PASSWORD_RESET_INVALID);
  const form = useZodForm(passwordResetSchema, { defaultValues: { token, newPassword: "", confirmPassword: "" } });
  const { errors } = form.formState;
  const reset = useMutation<MessageResponse, Error, { token: string; newPassword: string; confirmPassword: string }>({
    mutationFn: (input) => api.post<MessageResponse>("/api/auth/password-reset/confirm", input),
    meta: { allowUnauthorized: true },
    onSuccess: () => {
      setDone(true);
      toast({ title: "Password Reset", description: "Log in with your new password.", variant: "success" });
    },
    onError: (error) => {
      const fields = applyServerFieldErrors(form, error);
      if (serverMessage(error, "") === PASSWORD_RESET_INVALID) setLinkProblem(PASSWORD_RESET_INVALID);
      else if (!fields) toast({ title: "Reset Failed", description: serverMessage(error, "Unable to reset the password."), variant: "destructive" });
    },
  });

  return (
    <div className="flex min-h-dvh flex-col items-center bg-background px-5 py-8 sm:justify-center">
      <Brand className="mb-8" />
      <div className="w-full max-w-[440px] sm:rounded-2xl sm:border sm:bg-card sm:p-8 sm:shadow-sm">
        {done ? (
          <div>
            <CheckCircle2 className="mb-4 size-10 text-success" aria-hidden="true" />
            <h1 className="text-2xl font-bold tracking-tight">Password reset</h1>
            <p className="mt-2 text-sm text-muted-foreground">Your password has been changed and every device was signed out.</p>
            {/* A full load: any session this browser had has ended too. */}
            <Button asChild size="lg" className="mt-7 w-full">
              <a href="/auth">Go to Login</a>
            </Button>
          </div>
        ) : linkProblem ? (
          <div>
            <h1 className="text-2xl font-bold tracking-tight">Link not valid</h1>
            <p className="mt-2 text-sm text-muted-foreground" role="alert">
              {linkProblem}
            </p>
            <Button asChild size="lg" className="mt-7 w-full">
              <Link to="/auth?action=forgot">Request a new link</Link>
            </Button>
          </div>
        ) : (
          <div>
            <KeyRound className="mb-4 size-9 text-primary" aria-hidden="true" />
            <h1 className="text-2xl font-bold tracking-tight">Choose a new password</h1>
            <p className="mt-1.5 text-sm text-muted-foreground">Every device signed in to your account will be signed out.</p>
            <form className="mt-7 grid gap-5" noValidate onSubmit={form.handleSubmit((values) => reset.mutate(values))}>
              <FormField label="New Password" error={errors.newPassword?.message}>
                <PasswordInput id="reset-new-password" autoComplete="new-password" autoFocus {...form.register("newPassword")} />
              </FormField>
              <FormField label="Confirm New Password" error={errors.confirmPassword?.message}>
                <PasswordInput id="reset-confirm-password" autoComplete="new-password" {...form.register("confirmPassword")} />
              </FormField>
              <Button type="submit" size="lg" className="w-full" disabled={reset.isPending}>
                {reset.isPending && <Spinner />}
                {reset.isPending ? "Saving..." : "Set New Password"}
              </Button>
            </form>
          </div>
        )}
      </div>
    </div>
  );
}
