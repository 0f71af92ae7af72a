import type * as React from "react";
import { BACKUP_CODE_INPUT_MAX } from "../../shared/schemas/two-factor";
import { Input } from "../components/ui/input";

/** An authenticator code or a backup code (XXXX-XXXX) in one box, as typed: the server tells which it is. */
export function SecondFactorCodeInput(props: Omit<React.ComponentProps<"input">, "type" | "autoComplete" | "maxLength" | "placeholder" | "className">) {
  return <Input autoComplete="one-time-code" maxLength={BACKUP_CODE_INPUT_MAX} placeholder="123456 or XXXX-XXXX" className="font-mono" {...props} />;
}
