import { MailCheck, RotateCw } from "lucide-react";
import { useState } from "react";
import { VERIFICATION_CODE_LENGTH } from "../../shared/constants";
import { accountEmailCodeSchema, emailChangeRequestSchema, TWO_FACTOR_CODE_NEEDED } from "../../shared/schemas/profile";
import { PasswordInput } from "../auth/PasswordInput";
import { Button } from "../components/ui/button";
import { CodeInput } from "../components/ui/code-input";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogFormFooter, DialogHeader, DialogTitle } from "../components/ui/dialog";
import { FormField } from "../components/ui/form";
import { Spinner } from "../components/ui/spinner";
import { fieldErrors, serverMessage } from "../lib/api";
import { useConfirmEmailChange, useConfirmOwnAddress, useRequestEmailChange, useRequestOwnAddressCode } from "./api";
import { SecondFactorCodeInput } from "./SecondFactorCodeInput";

// The profile's e-mail dialogs (decision 169): proving the account's address, and changing it (password and second
// factor first, then the code mailed to the new address; nothing changes before that code is entered).

type Errors = Record<string, string | undefined>;

function issues(error: { issues: Array<{ path: PropertyKey[]; message: string }> }): Errors {
  return Object.fromEntries(error.issues.map((i) => [String(i.path[0]), i.message]));
}

/** A refused call's messages on their fields; one that names no field (a wait, a mail failure) for the whole form. */
function refused(error: Error, fallback: string): Errors {
  const fields = fieldErrors(error);
  return Object.keys(fields).length > 0 ? fields : { form: serverMessage(error, fallback) };
}

/** A message that belongs to no one field. */
function FormAlert({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-[13px] font-medium text-destructive">
      {message}
    </p>
  );
}

/** The 6-digit code from an e-mail. */
function EmailCodeField({ id, value, onChange, error }: { id: string; value: string; onChange: (code: string) => void; error?: string | undefined }) {
  return (
    <FormField label="Verification code" error={error}>
      <CodeInput id={id} length={VERIFICATION_CODE_LENGTH} placeholder="000000" autoFocus value={value} onChange={(e) => onChange(e.target.value)} />
    </FormField>
  );
}

/** Verify E-mail: the code mailed at registration (or a new one on request) proves the account's address. */
export function VerifyEmailDialog({ open, email, onClose }: { open: boolean; email: string; onClose: () => void }) {
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const send = useRequestOwnAddressCode();
  const confirm = useConfirmOwnAddress();

  function close() {
    setCode("");
    setErrors({});
    onClose();
  }

  function submit() {
    const parsed = accountEmailCodeSchema.safeParse({ code });
    if (!parsed.success) return setErrors(issues(parsed.error));
    setErrors({});
    confirm.mutate(parsed.data, { onSuccess: close, onError: (e) => setErrors(refused(e, "Unable to verify the code. Please try again.")) });
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Verify Your E-mail</DialogTitle>
          <DialogDescription>
            Enter the 6-digit code we sent to <span className="font-medium break-all text-foreground">{email}</span>. No code, or
            did it expire? Send a new one.
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <EmailCodeField id="verify-own-email-code" value={code} onChange={setCode} error={errors.code} />
          <FormAlert message={errors.form} />
          <DialogFooter className="gap-2 sm:justify-between">
            <Button variant="outline" onClick={() => send.mutate()} disabled={send.isPending}>
              {send.isPending ? <Spinner /> : <RotateCw aria-hidden="true" />}
              Send New Code
            </Button>
            <div className="flex flex-col-reverse gap-2 sm:flex-row">
              <Button variant="ghost" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={confirm.isPending}>
                {confirm.isPending ? <Spinner /> : <MailCheck aria-hidden="true" />}
                Verify
              </Button>
            </div>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Change E-mail, opened by saving Personal Information with a new address: the current password (and an
 * authenticator or backup code with two-factor on) sends a code to the new address; entering it makes the change.
 */
export function ChangeEmailDialog({
  email,
  twoFactorEnabled,
  onClose,
}: {
  /** The new address; null while closed. */
  email: string | null;
  twoFactorEnabled: boolean;
  /** Cancelled, or done (the cached user has the new address by then). */
  onClose: () => void;
}) {
  const [step, setStep] = useState<"confirm" | "code">("confirm");
  const [currentPassword, setCurrentPassword] = useState("");
  const [twoFactorCode, setTwoFactorCode] = useState("");
  const [code, setCode] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const request = useRequestEmailChange();
  const confirm = useConfirmEmailChange();

  function close() {
    setStep("confirm");
    setCurrentPassword("");
    setTwoFactorCode("");
    setCode("");
    setErrors({});
    onClose();
  }

  function sendCode() {
    const parsed = emailChangeRequestSchema.safeParse({ email, currentPassword, ...(twoFactorEnabled ? { twoFactorCode } : {}) });
    if (!parsed.success) return setErrors(issues(parsed.error));
    if (twoFactorEnabled && !twoFactorCode.trim()) return setErrors({ twoFactorCode: TWO_FACTOR_CODE_NEEDED });
    setErrors({});
    request.mutate(parsed.data, {
      onSuccess: () => {
        // The second factor is used up: a new code would be needed to ask again.
        setTwoFactorCode("");
        setStep("code");
      },
      onError: (e) => setErrors(refused(e, "Unable to send the code. Please try again.")),
    });
  }

  function submitCode() {
    const parsed = accountEmailCodeSchema.safeParse({ code });
    if (!parsed.success) return setErrors(issues(parsed.error));
    setErrors({});
    confirm.mutate(parsed.data, {
      onSuccess: close,
      onError: (e) => setErrors(refused(e, "Unable to change the e-mail. Please try again.")),
    });
  }

  return (
    <Dialog open={email !== null} onOpenChange={(next) => !next && close()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Change Your E-mail</DialogTitle>
          <DialogDescription>
            {step === "confirm" ? (
              <>
                To sign in with <span className="font-medium break-all text-foreground">{email}</span>, confirm it's you. We then
                send a code to that address; your e-mail changes when you enter it, and your current address is told.
              </>
            ) : (
              <>
                Enter the 6-digit code we sent to <span className="font-medium break-all text-foreground">{email}</span>.
              </>
            )}
          </DialogDescription>
        </DialogHeader>
        <form
          className="grid gap-4"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (step === "confirm") sendCode();
            else submitCode();
          }}
        >
          {step === "confirm" ? (
            <>
              <FormField label="Current Password" error={errors.currentPassword}>
                <PasswordInput
                  id="change-email-password"
                  autoComplete="current-password"
                  autoFocus
                  value={currentPassword}
                  onChange={(e) => setCurrentPassword(e.target.value)}
                />
              </FormField>
              {twoFactorEnabled && (
                <FormField label="Authentication code or backup code" error={errors.twoFactorCode}>
                  <SecondFactorCodeInput id="change-email-two-factor-code" value={twoFactorCode} onChange={(e) => setTwoFactorCode(e.target.value)} />
                </FormField>
              )}
            </>
          ) : (
            <EmailCodeField id="change-email-code" value={code} onChange={setCode} error={errors.code} />
          )}
          {/* The address itself refused (taken, the current one) or a wait: no field of this step shows it. */}
          <FormAlert message={errors.email ?? errors.form} />
          <DialogFormFooter
            onCancel={close}
            pending={step === "confirm" ? request.isPending : confirm.isPending}
            submitLabel={step === "confirm" ? "Send Code" : "Change E-mail"}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
