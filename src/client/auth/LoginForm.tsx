import { Building2, MailSearch } from "lucide-react";
import { useState } from "react";
import { Button } from "../components/ui/button";
import { FormField, useZodForm } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Spinner } from "../components/ui/spinner";
import { useAuth } from "./auth-provider";
import { useInvitationCheck } from "./invitation";
import type { AuthModeProps } from "./modes";
import { PasswordInput } from "./PasswordInput";

// The sign-in screen is the first screen of most visits: its checks (zod) download once it is drawn (issue 12).
const authSchemas = () => import("../../shared/schemas/auth");
const loadLoginSchema = () => authSchemas().then((m) => m.loginSchema);

/** Login mode (part 1 §2.2): e-mail and password; Sign Up reveals the invitation check. */
export function LoginForm({ state, go }: AuthModeProps) {
  const { loginMutation } = useAuth();
  const form = useZodForm(loadLoginSchema, { defaultValues: { email: state.email, password: "" } });
  const { errors } = form.formState;

  return (
    <div>
      <h2 className="text-2xl font-bold tracking-tight">Welcome back</h2>
      <p className="mt-1.5 text-sm text-muted-foreground">Sign in to your dealership workspace.</p>
      <form
        className="mt-7 grid gap-5"
        noValidate
        onSubmit={form.handleSubmit((values) =>
          loginMutation.mutate(values, {
            // Two-factor (part 1 §4): the code step sends the e-mail and password again with the code.
            onSuccess: (result) => {
              if ("requiresTwoFactor" in result) go({ mode: "twoFactor", email: values.email, pendingPassword: values.password });
            },
          }),
        )}
      >
        <FormField label="Email" error={errors.email?.message}>
          <Input id="login-email" type="email" autoComplete="email" inputMode="email" placeholder="you@dealership.com" {...form.register("email")} />
        </FormField>
        <FormField label="Password" error={errors.password?.message}>
          <PasswordInput id="login-password" autoComplete="current-password" placeholder="Your password" {...form.register("password")} />
        </FormField>
        <div className="-mt-3 flex justify-end">
          <button
            type="button"
            className="rounded text-sm font-medium text-primary outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/30"
            onClick={() => go({ mode: "forgot", email: form.getValues("email") })}
          >
            Forgot password?
          </button>
        </div>
        <Button type="submit" size="lg" className="mt-1 w-full" disabled={loginMutation.isPending}>
          {loginMutation.isPending && <Spinner />}
          {loginMutation.isPending ? "Logging in..." : "Login"}
        </Button>
      </form>
      <SignUpInvitationCheck go={go} />
    </div>
  );
}

function SignUpInvitationCheck({ go }: Pick<AuthModeProps, "go">) {
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const { check, isChecking, notFoundFor } = useInvitationCheck(go);

  async function submit() {
    const { invitationCheckSchema } = await authSchemas();
    const parsed = invitationCheckSchema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Please enter a valid email address");
      return;
    }
    setError(null);
    check(parsed.data.email);
  }

  return (
    <div className="mt-6">
      <div className="relative my-6 flex items-center">
        <div className="h-px flex-1 bg-border" />
        <span className="px-3 text-xs font-medium uppercase tracking-wider text-muted-foreground">New to Showroom?</span>
        <div className="h-px flex-1 bg-border" />
      </div>
      {!open ? (
        <Button variant="outline" size="lg" className="w-full" onClick={() => setOpen(true)}>
          Sign Up
        </Button>
      ) : (
        <div className="rounded-lg border bg-muted/40 p-4">
          <FormField label="Enter your email to check for invitation" error={error ?? undefined}>
            <Input
              id="invitation-email"
              type="email"
              autoComplete="email"
              inputMode="email"
              autoFocus
              placeholder="you@dealership.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") {
                  e.preventDefault();
                  void submit();
                }
              }}
            />
          </FormField>
          <div className="mt-3 flex gap-2">
            <Button
              variant="ghost"
              className="flex-1"
              onClick={() => {
                setOpen(false);
                setEmail("");
                setError(null);
              }}
            >
              Cancel
            </Button>
            <Button className="flex-1" onClick={() => void submit()} disabled={isChecking}>
              {isChecking ? <Spinner /> : <MailSearch aria-hidden="true" />}
              Check Invitation
            </Button>
          </div>
          {/* "No Invitation Found" used to be a dead end: someone starting a dealership registers it here (issue 12); the
              panel says it, not a red toast beside it (issue 30). */}
          <div role="status" aria-live="polite">
            {notFoundFor && (
              <div className="mt-4 border-t pt-4" data-testid="no-invitation">
                <p className="text-sm font-semibold">No Invitation Found</p>
                <p className="mt-1 text-sm text-muted-foreground">
                  No invitation for <span className="break-all font-medium text-foreground">{notFoundFor}</span>. Joining a team? Please
                  contact your dealership administrator for an invitation. Starting your own?
                </p>
                <Button
                  variant="outline"
                  className="mt-3 w-full"
                  onClick={() => go({ mode: "register", email: notFoundFor, emailLocked: false, invitation: null, draft: undefined })}
                >
                  <Building2 aria-hidden="true" />
                  Create a new dealership
                </Button>
              </div>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
