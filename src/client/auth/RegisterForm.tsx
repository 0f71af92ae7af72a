import { Lock } from "lucide-react";
import { ROLE_LABELS } from "../../shared/constants";
import { registerSchema } from "../../shared/schemas/auth";
import { Button } from "../components/ui/button";
import { applyServerFieldErrors, FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { PhoneInput } from "../components/ui/phone-input";
import { Spinner } from "../components/ui/spinner";
import { useAuth } from "./auth-provider";
import { useInvitedSignUp } from "./invitation";
import type { AuthModeProps } from "./modes";
import { PasswordInput } from "./PasswordInput";

/** Register mode (part 1 §2.2): "Complete Your Registration". */
export function RegisterForm({ state, go }: AuthModeProps) {
  const { registerMutation } = useAuth();
  const invitation = state.invitation;
  // With an invitation, Create Account e-mails a code and moves to the verification mode (decision 032).
  const invited = useInvitedSignUp(state, go);
  const draft = state.draft;
  const form = useZodForm(registerSchema, {
    defaultValues: {
      firstName: draft?.firstName ?? "",
      lastName: draft?.lastName ?? "",
      email: state.email,
      phone: draft?.phone ?? "",
      dealershipName: invitation?.dealershipName ?? "",
      password: draft?.password ?? "",
      confirmPassword: draft?.confirmPassword ?? "",
    },
  });
  const { errors } = form.formState;

  return (
    <div>
      <h2 className="text-2xl font-bold tracking-tight">Complete Your Registration</h2>
      <p className="mt-1.5 text-sm text-muted-foreground">
        {invitation
          ? `You've been invited to join ${invitation.dealershipName} as ${ROLE_LABELS[invitation.role] ?? invitation.role}`
          : "Create your account to get started"}
      </p>
      <form
        className="mt-7 grid gap-4"
        noValidate
        onSubmit={form.handleSubmit((values) =>
          invitation
            ? invited.start({ ...values, phone: values.phone ?? "" })
            : registerMutation.mutate(values, {
                onSuccess: (result) => {
                  if ("requiresTwoFactor" in result) go({ mode: "twoFactor", email: values.email, pendingPassword: values.password });
                },
                onError: (error) => applyServerFieldErrors(form, error),
              }),
        )}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="First name" error={errors.firstName?.message}>
            <Input id="register-first-name" autoComplete="given-name" {...form.register("firstName")} />
          </FormField>
          <FormField label="Last name" error={errors.lastName?.message}>
            <Input id="register-last-name" autoComplete="family-name" {...form.register("lastName")} />
          </FormField>
        </div>
        <FormField
          label="Email"
          error={errors.email?.message}
          hint={
            state.emailLocked ? (
              <span className="inline-flex items-center gap-1">
                <Lock className="size-3" aria-hidden="true" /> This e-mail comes from your invitation link.
              </span>
            ) : undefined
          }
        >
          <Input id="register-email" type="email" autoComplete="email" inputMode="email" readOnly={state.emailLocked || invitation !== null} {...form.register("email")} />
        </FormField>
        <FormField label="Phone number" error={errors.phone?.message}>
          <PhoneInput id="register-phone" autoComplete="tel" registration={form.register("phone")} />
        </FormField>
        {!invitation && (
          <FormField label="Dealership name" error={errors.dealershipName?.message}>
            <Input id="register-dealership" autoComplete="organization" placeholder="e.g. Northside Motors" {...form.register("dealershipName")} />
          </FormField>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Password" error={errors.password?.message}>
            <PasswordInput id="register-password" autoComplete="new-password" {...form.register("password")} />
          </FormField>
          <FormField label="Confirm password" error={errors.confirmPassword?.message}>
            <PasswordInput id="register-confirm-password" autoComplete="new-password" {...form.register("confirmPassword")} />
          </FormField>
        </div>
        <Button type="submit" size="lg" className="mt-2 w-full" disabled={registerMutation.isPending || invited.isPending}>
          {(registerMutation.isPending || invited.isPending) && <Spinner />}
          Create Account
        </Button>
      </form>
      {!state.emailLocked && (
        <p className="mt-6 text-center text-sm text-muted-foreground">
          <button type="button" className="font-medium text-primary underline-offset-4 hover:underline" onClick={() => go({ mode: "login" })}>
            Already have an account? Login
          </button>
        </p>
      )}
    </div>
  );
}
