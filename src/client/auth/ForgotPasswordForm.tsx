import { useMutation } from "@tanstack/react-query";
import { ArrowLeft, MailCheck } from "lucide-react";
import { useState } from "react";
import { PASSWORD_RESET_SENT, passwordResetRequestSchema } from "../../shared/schemas/profile";
import type { MessageResponse } from "../../shared/schemas/responses/fields";
import { Button } from "../components/ui/button";
import { FormField } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Spinner } from "../components/ui/spinner";
import { api, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import type { AuthModeProps } from "./modes";

/** "Forgot password?" (issue 15; decision 083): the e-mail gets a single-use link, if it has an account. */
export function ForgotPasswordForm({ state, go }: AuthModeProps) {
  const [email, setEmail] = useState(state.email);
  const [error, setError] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const request = useMutation<MessageResponse, Error, string>({
    mutationFn: (address) => api.post<MessageResponse>("/api/auth/password-reset/request", { email: address }),
    meta: { allowUnauthorized: true },
    onSuccess: (_answer, address) => setSentTo(address),
    onError: (e) => toast({ title: "Reset Failed", description: serverMessage(e, "Unable to send the reset link. Please try again."), variant: "destructive" }),
  });

  function submit() {
    const parsed = passwordResetRequestSchema.safeParse({ email });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    request.mutate(parsed.data.email);
  }

  const back = () => go({ mode: "login", email: sentTo ?? email });

  if (sentTo) {
    return (
      <div>
        <div className="mb-5 flex size-12 items-center justify-center rounded-full bg-primary/10 text-primary">
          <MailCheck className="size-6" aria-hidden="true" />
        </div>
        <h2 className="text-2xl font-bold tracking-tight">Check your email</h2>
        <p className="mt-2 text-sm text-muted-foreground" role="status">
          {PASSWORD_RESET_SENT} The link works once, for 30 minutes.
        </p>
        <Button variant="outline" size="lg" className="mt-7 w-full" onClick={back}>
          <ArrowLeft aria-hidden="true" /> Back to Login
        </Button>
      </div>
    );
  }

  return (
    <div>
      <h2 className="text-2xl font-bold tracking-tight">Forgot your password?</h2>
      <p className="mt-1.5 text-sm text-muted-foreground">Enter your email and we'll send you a link to choose a new one.</p>
      <form
        className="mt-7 grid gap-5"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <FormField label="Email" error={error}>
          <Input
            id="forgot-email"
            type="email"
            autoComplete="email"
            inputMode="email"
            autoFocus
            placeholder="you@dealership.com"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </FormField>
        <Button type="submit" size="lg" className="w-full" disabled={request.isPending}>
          {request.isPending && <Spinner />}
          {request.isPending ? "Sending..." : "Send Reset Link"}
        </Button>
        <Button variant="ghost" className="w-full" onClick={back}>
          <ArrowLeft aria-hidden="true" /> Back to Login
        </Button>
      </form>
    </div>
  );
}
