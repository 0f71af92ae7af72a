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

/**
 * The digits of a pasted number: "+1 (905) 555-1212" → "9055551212". A leading country code 1 before ten digits is
 * dropped instead of pushing the last digit out (issue 12: it gave "190-555-5121").
 */
export function pastedPhoneDigits(text: string): string {
  const digits = text.replace(/\D/g, "");
  return digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
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
      onPaste={(event) => {
        const input = event.currentTarget;
        const pasted = pastedPhoneDigits(event.clipboardData.getData("text"));
        event.preventDefault();
        const start = input.selectionStart ?? input.value.length;
        const end = input.selectionEnd ?? input.value.length;
        input.value = formatPhone(input.value.slice(0, start) + pasted + input.value.slice(end));
        void registration.onChange({ target: input, type: "change" });
      }}
    />
  );
}
