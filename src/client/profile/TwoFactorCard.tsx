import { Check, Copy, Download, ShieldCheck, ShieldOff } from "lucide-react";
import { useEffect, useState } from "react";
import type { TwoFactorSetup } from "../../shared/schemas/responses/profile";
import {
  authenticatorCodeField,
  BACKUP_CODE_INPUT_MAX,
  COPIED_LABEL_MS,
  disableTwoFactorSchema,
  TWO_FACTOR_CODE_LENGTH,
} from "../../shared/schemas/two-factor";
import { PasswordInput } from "../auth/PasswordInput";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { FormField } from "../components/ui/form";
import { Input } from "../components/ui/input";
import { Skeleton } from "../components/ui/skeleton";
import { Spinner } from "../components/ui/spinner";
import { fieldErrors } from "../lib/api";
import { toast } from "../lib/toast";
import {
  useDisableTwoFactor,
  useRegenerateBackupCodes,
  useStartTwoFactorSetup,
  useTwoFactorStatus,
  useVerifyTwoFactorSetup,
} from "./api";

/** The Two-factor settings card (part 2 §2): status, Enable 2FA, New Backup Codes, Disable, and their dialogs. */
export function TwoFactorCard() {
  const status = useTwoFactorStatus();
  const start = useStartTwoFactorSetup();
  const regenerate = useRegenerateBackupCodes();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
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
              <Button variant="outline" onClick={() => regenerate.mutate(undefined, { onSuccess: (r) => setCodes(r.backupCodes) })} disabled={regenerate.isPending}>
                {regenerate.isPending && <Spinner />}
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
              <Input
                id="two-factor-setup-code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={TWO_FACTOR_CODE_LENGTH}
                placeholder="123456"
                className="text-center font-mono text-lg tracking-[0.4em]"
                value={token}
                onChange={(e) => setToken(e.target.value.replace(/\D/g, ""))}
              />
            </FormField>
            <DialogFooter>
              <Button variant="ghost" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={verify.isPending}>
                {verify.isPending && <Spinner />}
                Verify and Enable
              </Button>
            </DialogFooter>
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
            <Input
              id="disable-two-factor-code"
              autoComplete="one-time-code"
              maxLength={BACKUP_CODE_INPUT_MAX}
              placeholder="123456 or XXXX-XXXX"
              className="font-mono"
              value={token}
              onChange={(e) => setToken(e.target.value)}
            />
          </FormField>
          <DialogFooter>
            <Button variant="ghost" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={disable.isPending}>
              {disable.isPending && <Spinner />}
              Disable 2FA
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
