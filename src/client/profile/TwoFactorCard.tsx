import { Check, Copy, Download, KeyRound, ShieldCheck, ShieldOff, Smartphone } from "lucide-react";
import { useEffect, useState } from "react";
import type { TwoFactorSetup } from "../../shared/schemas/responses/profile";
import {
  authenticatorCodeField,
  COPIED_LABEL_MS,
  disableTwoFactorSchema,
  PASSWORD_OR_CODE_NEEDED,
  regenerateBackupCodesSchema,
  TWO_FACTOR_CODE_LENGTH,
} from "../../shared/schemas/two-factor";
import { PasswordInput } from "../auth/PasswordInput";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { CodeInput } from "../components/ui/code-input";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogFormFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { FormField } from "../components/ui/form";
import { Segmented } from "../components/ui/segmented";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { fieldErrors, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import {
  useDisableTwoFactor,
  useRegenerateBackupCodes,
  useStartTwoFactorSetup,
  useTwoFactorStatus,
  useVerifyTwoFactorSetup,
} from "./api";
import { SecondFactorCodeInput } from "./SecondFactorCodeInput";

/** The Two-factor settings card (part 2 §2): status, Enable 2FA, New Backup Codes, Disable, and their dialogs. */
export function TwoFactorCard() {
  const status = useTwoFactorStatus();
  const start = useStartTwoFactorSetup();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [regenerating, setRegenerating] = useState(false);
  const enabled = status.data?.enabled ?? false;

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>Two-Factor Authentication</CardTitle>
          <CardDescription>A code from an authenticator app at every sign-in, besides your password.</CardDescription>
        </div>
        {status.isLoading ? (
          <Skeleton className="h-6 w-16" />
        ) : (
          <Badge variant={enabled ? "success" : "secondary"} data-testid="two-factor-status">
            {enabled ? "Active" : "Inactive"}
          </Badge>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          {enabled
            ? `${status.data?.backupCodesLeft ?? 0} unused backup codes left.`
            : "Protect your account even if someone learns your password."}
        </p>
        <div className="flex flex-wrap gap-2">
          {!enabled ? (
            <Button onClick={() => start.mutate(undefined, { onSuccess: setSetup })} disabled={start.isPending || status.isLoading}>
              {start.isPending ? <Spinner /> : <ShieldCheck aria-hidden="true" />}
              Enable 2FA
            </Button>
          ) : (
            <>
              <Button variant="outline" onClick={() => setRegenerating(true)}>
                New Backup Codes
              </Button>
              <Button variant="destructive" onClick={() => setDisabling(true)}>
                <ShieldOff aria-hidden="true" /> Disable
              </Button>
            </>
          )}
        </div>
      </CardContent>
      <SetupDialog
        setup={setup}
        onClose={() => setSetup(null)}
        onEnabled={(backupCodes) => {
          setSetup(null);
          setCodes(backupCodes);
        }}
      />
      <RegenerateDialog
        open={regenerating}
        onClose={() => setRegenerating(false)}
        onRegenerated={(backupCodes) => {
          setRegenerating(false);
          setCodes(backupCodes);
        }}
      />
      <BackupCodesDialog codes={codes} onClose={() => setCodes(null)} />
      <DisableDialog open={disabling} onClose={() => setDisabling(false)} />
    </Card>
  );
}

/** QR code, the key to type by hand, and the six-digit code that proves the app has it. */
function SetupDialog({ setup, onClose, onEnabled }: { setup: TwoFactorSetup | null; onClose: () => void; onEnabled: (codes: string[]) => void }) {
  const [token, setToken] = useState("");
  const [error, setError] = useState<string | undefined>();
  const verify = useVerifyTwoFactorSetup();

  function close() {
    setToken("");
    setError(undefined);
    onClose();
  }

  function submit() {
    if (!setup) return;
    const parsed = authenticatorCodeField.safeParse(token);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    verify.mutate(
      { secret: setup.secret, token: parsed.data },
      {
        onSuccess: (result) => {
          setToken("");
          onEnabled(result.backupCodes);
        },
        onError: (e) => setError(fieldErrors(e).token),
      },
    );
  }

  return (
    <Dialog open={setup !== null} onOpenChange={(open) => !open && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Set Up Two-Factor Authentication</DialogTitle>
          <DialogDescription>Scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, ...), then enter the 6-digit code it shows.</DialogDescription>
        </DialogHeader>
        {setup && (
          <form
            className="grid gap-4"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            <img src={setup.qrCodeUrl} alt="QR code for your authenticator app" className="mx-auto size-48 rounded-lg border bg-white p-2" />
            <div className="grid gap-1.5">
              <p className="text-sm font-medium">Can't scan it? Enter this key instead:</p>
              <code data-testid="manual-entry-key" className="break-all rounded-md bg-muted px-3 py-2 text-center font-mono text-sm tracking-wider">
                {setup.manualEntryKey}
              </code>
            </div>
            <FormField label="Verification code" error={error}>
              <CodeInput id="two-factor-setup-code" length={TWO_FACTOR_CODE_LENGTH} value={token} onChange={(e) => setToken(e.target.value)} />
            </FormField>
            <DialogFormFooter onCancel={close} pending={verify.isPending} submitLabel="Verify and Enable" />
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The backup codes, shown once: Copy (a 2 s "Copied"), Download as a text file, and a confirm button. */
function BackupCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_LABEL_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const text = (codes ?? []).join("\n");

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast({ title: "Copied", description: "Backup codes copied to the clipboard.", variant: "success", duration: COPIED_LABEL_MS });
    } catch {
      toast({ title: "Copy Failed", description: "Select the codes and copy them by hand.", variant: "destructive" });
    }
  }

  function download() {
    const file = new Blob([`Showroom backup codes (each works once)\n\n${text}\n`], { type: "text/plain" });
    const url = URL.createObjectURL(file);
    const link = document.createElement("a");
    link.href = url;
    link.download = "showroom-backup-codes.txt";
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <Dialog open={codes !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Your Backup Codes</DialogTitle>
          <DialogDescription>
            Keep these somewhere safe. Each code signs you in once if you lose your phone. They are shown only now.
          </DialogDescription>
        </DialogHeader>
        <ul data-testid="backup-codes" className="grid grid-cols-2 gap-2 rounded-lg border bg-muted/40 p-4 font-mono text-sm">
          {(codes ?? []).map((code) => (
            <li key={code} className="text-center tracking-wider">
              {code}
            </li>
          ))}
        </ul>
        <DialogFooter className="gap-2 sm:justify-between">
          <div className="flex gap-2">
            <Button variant="outline" onClick={() => void copy()}>
              {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
              {copied ? "Copied" : "Copy"}
            </Button>
            <Button variant="outline" onClick={download}>
              <Download aria-hidden="true" /> Download
            </Button>
          </div>
          <Button onClick={onClose}>I've Saved My Codes</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

type Proof = "password" | "authenticator";

/**
 * New Backup Codes asks for the password or a current authenticator code first (decision 169): a session left open
 * on someone's desk must not be enough to get codes that sign in without the phone.
 */
function RegenerateDialog({ open, onClose, onRegenerated }: { open: boolean; onClose: () => void; onRegenerated: (codes: string[]) => void }) {
  const [proof, setProof] = useState<Proof>("password");
  const [value, setValue] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const regenerate = useRegenerateBackupCodes();
  const field = proof === "password" ? "password" : "token";

  function close() {
    setProof("password");
    setValue("");
    setErrors({});
    onClose();
  }

  function switchProof(next: Proof) {
    setProof(next);
    setValue("");
    setErrors({});
  }

  function submit() {
    const parsed = regenerateBackupCodesSchema.safeParse({ [field]: value });
    if (!parsed.success) return setErrors({ [field]: parsed.error.issues[0]?.message ?? PASSWORD_OR_CODE_NEEDED });
    setErrors({});
    regenerate.mutate(parsed.data, {
      onSuccess: (result) => {
        setValue("");
        onRegenerated(result.backupCodes);
      },
      onError: (e) => {
        const fields = fieldErrors(e);
        setErrors(Object.keys(fields).length > 0 ? fields : { [field]: serverMessage(e, "Failed to regenerate backup codes") });
      },
    });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New Backup Codes</DialogTitle>
          <DialogDescription>Confirm it's you with your password or a code from your authenticator app. Your old backup codes stop working.</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Segmented<Proof>
            label="Confirm with"
            value={proof}
            onChange={switchProof}
            options={[
              { value: "password", label: "Password", icon: <KeyRound aria-hidden="true" /> },
              { value: "authenticator", label: "Authenticator code", icon: <Smartphone aria-hidden="true" /> },
            ]}
          />
          {proof === "password" ? (
            <FormField label="Password" error={errors.password}>
              <PasswordInput id="regenerate-codes-password" autoComplete="current-password" autoFocus value={value} onChange={(e) => setValue(e.target.value)} />
            </FormField>
          ) : (
            <FormField label="Authentication code" error={errors.token}>
              <CodeInput id="regenerate-codes-token" length={TWO_FACTOR_CODE_LENGTH} autoFocus value={value} onChange={(e) => setValue(e.target.value)} />
            </FormField>
          )}
          <DialogFormFooter onCancel={close} pending={regenerate.isPending} submitLabel="Get New Codes" />
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Password and a code (or a backup code) turn two-factor off (part 2 §5). */
function DisableDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [password, setPassword] = useState("");
  const [token, setToken] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const disable = useDisableTwoFactor();

  function close() {
    setPassword("");
    setToken("");
    setErrors({});
    onClose();
  }

  function submit() {
    const parsed = disableTwoFactorSchema.safeParse({ password, token });
    if (!parsed.success) return setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
    setErrors({});
    disable.mutate(parsed.data, { onSuccess: close, onError: (e) => setErrors(fieldErrors(e)) });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Disable Two-Factor Authentication</DialogTitle>
          <DialogDescription>Enter your password and a code from your authenticator app, or one of your backup codes.</DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <FormField label="Password" error={errors.password}>
            <PasswordInput id="disable-two-factor-password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </FormField>
          <FormField label="Authentication code or backup code" error={errors.token}>
            <SecondFactorCodeInput id="disable-two-factor-code" value={token} onChange={(e) => setToken(e.target.value)} />
          </FormField>
          <DialogFormFooter onCancel={close} pending={disable.isPending} submitLabel="Disable 2FA" variant="destructive" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
