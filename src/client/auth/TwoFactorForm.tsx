import { ArrowLeft, KeyRound, Smartphone } from "lucide-react";
import { useState } from "react";
import { BACKUP_CODE_INPUT_MAX, signInBackupCodeSchema, signInCodeSchema, TWO_FACTOR_CODE_LENGTH } from "../../shared/schemas/two-factor";
import { Button } from "../components/ui/button";
import { CodeInput } from "../components/ui/code-input";
import { FormField } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Spinner } from "../components/ui/spinner";
import { cn } from "../lib/utils";
import { useAuth } from "./auth-provider";
import type { AuthModeProps } from "./modes";

type CodeKind = "authenticator" | "backup";

/**
 * The two-factor step (part 1 §2.2, §4): the e-mail, a toggle between the authenticator code (6 digits) and a backup
 * code (XXXX-XXXX), Verify, and Back to Login. Verify sends e-mail, password and code again.
 */
export function TwoFactorForm({ state, go }: AuthModeProps) {
  const { loginMutation } = useAuth();
  const [kind, setKind] = useState<CodeKind>("authenticator");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();

  function back() {
    go({ mode: "login", pendingPassword: undefined });
  }

  function switchKind(next: CodeKind) {
    setKind(next);
    setCode("");
    setError(undefined);
  }

  function submit() {
    const parsed = (kind === "authenticator" ? signInCodeSchema : signInBackupCodeSchema).safeParse({ code });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    if (!state.pendingPassword) return back();
    loginMutation.mutate(
      { email: state.email, password: state.pendingPassword, twoFactorCode: parsed.data.code },
      { onError: () => setCode("") },
    );
  }

  return (
    <div>
      <h2 className="text-2xl font-bold tracking-tight">Two-Factor Authentication</h2>
      <p className="mt-1.5 text-sm text-muted-foreground">
        {kind === "authenticator" ? "Enter the 6-digit code from your authenticator app" : "Enter one of your backup codes. Each works once."}
      </p>
      <p className="mt-3 truncate rounded-md bg-muted px-3 py-2 text-sm font-medium" data-testid="two-factor-email">
        {state.email}
      </p>

      <div role="tablist" aria-label="Kind of code" className="mt-6 grid grid-cols-2 gap-1 rounded-lg bg-muted p-1">
        {(
          [
            ["authenticator", "Authenticator code", Smartphone],
            ["backup", "Backup code", KeyRound],
          ] as const
        ).map(([value, label, Icon]) => (
          <button
            key={value}
            type="button"
            role="tab"
            aria-selected={kind === value}
            onClick={() => switchKind(value)}
            className={cn(
              "flex items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition",
              kind === value ? "bg-card text-foreground shadow-xs" : "text-muted-foreground hover:text-foreground",
            )}
          >
            <Icon className="size-4" aria-hidden="true" />
            {label}
          </button>
        ))}
      </div>

      <form
        className="mt-5 grid gap-5"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <FormField label={kind === "authenticator" ? "Authentication code" : "Backup code"} error={error}>
          {kind === "authenticator" ? (
            <CodeInput id="two-factor-code" key={kind} autoFocus length={TWO_FACTOR_CODE_LENGTH} value={code} onChange={(e) => setCode(e.target.value)} />
          ) : (
            <Input
              id="two-factor-code"
              key={kind}
              autoFocus
              autoComplete="one-time-code"
              maxLength={BACKUP_CODE_INPUT_MAX}
              placeholder="XXXX-XXXX"
              className="text-center font-mono text-lg tracking-[0.3em]"
              value={code}
              onChange={(e) => setCode(e.target.value.toUpperCase())}
            />
          )}
        </FormField>
        <Button type="submit" size="lg" className="w-full" disabled={loginMutation.isPending}>
          {loginMutation.isPending && <Spinner />}
          Verify
        </Button>
        <Button variant="ghost" className="w-full" onClick={back}>
          <ArrowLeft aria-hidden="true" /> Back to Login
        </Button>
      </form>
    </div>
  );
}
