import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, MailCheck, RotateCw } from "lucide-react";
import { ROLE_LABELS, VERIFICATION_CODE_LENGTH } from "../../shared/constants";
import type { CurrentUser } from "../../shared/schemas/responses/auth";
import { emailVerificationVerifySchema, type EmailVerificationVerifyInput } from "../../shared/schemas/team";
import { Button } from "../components/ui/button";
import { CodeInput } from "../components/ui/code-input";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Spinner } from "../components/ui/spinner";
import { api, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { forgetSignedInData, useCompleteSignIn } from "./auth-provider";
import { useSendCode } from "./invitation";
import type { AuthModeProps } from "./modes";
import { PasswordInput } from "./PasswordInput";

/** E-mail verification mode (part 1 §2.2, §4, §5, §8): the e-mailed code plus the profile completes sign-up. */
export function VerifyEmailForm({ state, go }: AuthModeProps) {
  const queryClient = useQueryClient();
  const completeSignIn = useCompleteSignIn();
  const sendCode = useSendCode();
  const draft = state.draft;
  const form = useZodForm(emailVerificationVerifySchema, {
    defaultValues: {
      email: state.email,
      code: "",
      firstName: draft?.firstName ?? "",
      lastName: draft?.lastName ?? "",
      phone: draft?.phone ?? "",
      password: draft?.password ?? "",
      confirmPassword: draft?.confirmPassword ?? "",
    },
  });
  const { errors } = form.formState;

  const verify = useMutation<CurrentUser | { requiresTwoFactor: true }, Error, EmailVerificationVerifyInput>({
    mutationFn: (input) => api.post<CurrentUser | { requiresTwoFactor: true }>("/api/auth/email-verification/verify", input),
    meta: { allowUnauthorized: true },
    onMutate: () => forgetSignedInData(queryClient),
    onSuccess: (user, values) => {
      if ("requiresTwoFactor" in user) {
        // Joined; an account with two-factor on finishes signing in with its authenticator code.
        toast({ title: "Invitation Accepted", description: "Enter the code from your authenticator app to sign in.", variant: "success" });
        go({ mode: "twoFactor", email: values.email, pendingPassword: values.password });
        return;
      }
      completeSignIn(user);
      toast({
        title: "Registration Complete",
        description: state.invitation ? `Welcome to ${state.invitation.dealershipName}!` : "Welcome to Showroom!",
        variant: "success",
      });
    },
    onError: (error) => {
      applyServerFieldErrors(form, error);
      toast({ title: "Verification Failed", description: serverMessage(error, "Invalid or expired verification code."), variant: "destructive" });
    },
  });

  return (
    <div>
      <div className="mb-5 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
        <MailCheck className="size-6" aria-hidden="true" />
      </div>
      <h2 className="text-2xl font-bold tracking-tight">Check your email</h2>
      <p className="mt-1.5 text-sm text-muted-foreground">
        Enter the 6-digit code sent to <span className="font-medium text-foreground break-all">{state.email}</span>
      </p>
      {state.invitation && (
        <p className="mt-1 text-sm text-muted-foreground">
          Joining {state.invitation.dealershipName} as {ROLE_LABELS[state.invitation.role] ?? state.invitation.role}.
        </p>
      )}
      <form className="mt-7 grid gap-4" noValidate onSubmit={form.handleSubmit((values) => verify.mutate(values))}>
        <FormField label="Verification code" error={errors.code?.message}>
          <CodeInput id="verify-code" length={VERIFICATION_CODE_LENGTH} placeholder="000000" autoFocus {...form.register("code")} />
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="First name" error={errors.firstName?.message}>
            <Input id="verify-first-name" autoComplete="given-name" {...form.register("firstName")} />
          </FormField>
          <FormField label="Last name" error={errors.lastName?.message}>
            <Input id="verify-last-name" autoComplete="family-name" {...form.register("lastName")} />
          </FormField>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Password" error={errors.password?.message}>
            <PasswordInput id="verify-password" autoComplete="new-password" {...form.register("password")} />
          </FormField>
          <FormField label="Confirm password" error={errors.confirmPassword?.message}>
            <PasswordInput id="verify-confirm-password" autoComplete="new-password" {...form.register("confirmPassword")} />
          </FormField>
        </div>
        <p className="-mt-1 text-xs text-muted-foreground">Already have a Showroom account with this e-mail? Enter its current password to join.</p>
        <Button type="submit" size="lg" className="mt-2 w-full" disabled={verify.isPending}>
          {verify.isPending && <Spinner />}
          Complete Registration
        </Button>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
          <Button
            variant="ghost"
            onClick={() => {
              const v = form.getValues();
              go({
                mode: "register",
                draft: { firstName: v.firstName, lastName: v.lastName, phone: v.phone, password: v.password, confirmPassword: v.confirmPassword },
              });
            }}
          >
            <ArrowLeft aria-hidden="true" />
            Back
          </Button>
          <Button variant="outline" onClick={() => sendCode.mutate(state.email)} disabled={sendCode.isPending}>
            {sendCode.isPending ? <Spinner /> : <RotateCw aria-hidden="true" />}
            Resend Code
          </Button>
        </div>
      </form>
    </div>
  );
}
