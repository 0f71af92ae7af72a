import type * as React from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { formatPhone } from "../../../shared/format";
import { Input } from "./input";

/** Only digits and the keys that move or edit (part 1 §2.6 phone rule). */
export function allowPhoneKey(event: React.KeyboardEvent<HTMLInputElement>): void {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key.length > 1) return; // Backspace, Delete, Tab, arrows, Home, End, Enter...
  if (!/\d/.test(event.key)) event.preventDefault();
}

/** A phone field that accepts digits only and shows them as 555-123-4567 while typing (part 1 §2.6, §2.8). */
export function PhoneInput({ registration, ...props }: { registration: UseFormRegisterReturn } & Omit<React.ComponentProps<"input">, "type">) {
  return (
    <Input
      type="tel"
      inputMode="numeric"
      placeholder="555-123-4567"
      {...props}
      {...registration}
      onKeyDown={allowPhoneKey}
      onChange={(event) => {
        event.target.value = formatPhone(event.target.value);
        void registration.onChange(event);
      }}
    />
  );
}
