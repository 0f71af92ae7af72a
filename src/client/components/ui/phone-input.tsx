import type * as React from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { Input } from "./input";

/** Digits, "+" for a number with its country code, "x" for an extension, and the keys that move or edit (part 1 §2.6, issue 29). */
export function allowPhoneKey(event: React.KeyboardEvent<HTMLInputElement>): void {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key.length > 1) return; // Backspace, Delete, Tab, arrows, Home, End, Enter...
  if (!/[\d+xX ]/.test(event.key)) event.preventDefault();
}

const EXTENSION = /\s*(?:;\s*ext=|extension|ext\.?|x|#)\s*(\d*)\s*$/i;

/**
 * The field as it is typed (no library here: the sign-up page has a size budget): a North American number as
 * 555-123-4567 (part 1 §2.6), an extension after it as " x123", a number typed with "+" kept in international form.
 * The server reads whatever is sent with libphonenumber-js (shared/phone.ts) and refuses what is not a number.
 */
export function typedPhone(input: string): string {
  const extension = EXTENSION.exec(input);
  const main = extension ? input.slice(0, extension.index) : input;
  const ext = extension ? ` x${extension[1]!.slice(0, 10)}` : "";
  if (main.trimStart().startsWith("+")) return `+${main.trimStart().slice(1).replace(/[^\d\s]/g, "").replace(/\s+/g, " ").trimStart()}${ext}`;
  const digits = main.replace(/\D/g, "").slice(0, 10);
  if (digits.length <= 3) return `${digits}${ext}`;
  if (digits.length <= 6) return `${digits.slice(0, 3)}-${digits.slice(3)}${ext}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}${ext}`;
}

/**
 * A pasted number as the field takes it: "+1 (905) 555-1212" → "9055551212" (a leading country code 1 before ten
 * digits is dropped instead of pushing the last digit out, issue 12); "+44 20 7946 0958" stays international; an
 * extension ("ext. 123", "#123") is kept as " x123".
 */
export function pastedPhone(text: string): string {
  const extension = EXTENSION.exec(text);
  const main = extension ? text.slice(0, extension.index) : text;
  const ext = extension?.[1] ? ` x${extension[1]}` : "";
  const digits = main.replace(/\D/g, "");
  if (digits.length === 11 && digits.startsWith("1")) return `${digits.slice(1)}${ext}`;
  if (main.trimStart().startsWith("+")) return `${main.trim()}${ext}`;
  return `${digits}${ext}`;
}

/** A phone field that shows a North American number as 555-123-4567 while typing (part 1 §2.6, §2.8). */
export function PhoneInput({ registration, ...props }: { registration: UseFormRegisterReturn } & Omit<React.ComponentProps<"input">, "type">) {
  return (
    <Input
      type="tel"
      inputMode="tel"
      placeholder="555-123-4567"
      {...props}
      {...registration}
      onKeyDown={allowPhoneKey}
      onChange={(event) => {
        event.target.value = typedPhone(event.target.value);
        void registration.onChange(event);
      }}
      onPaste={(event) => {
        const input = event.currentTarget;
        const pasted = pastedPhone(event.clipboardData.getData("text"));
        event.preventDefault();
        const start = input.selectionStart ?? input.value.length;
        const end = input.selectionEnd ?? input.value.length;
        input.value = typedPhone(input.value.slice(0, start) + pasted + input.value.slice(end));
        void registration.onChange({ target: input, type: "change" });
      }}
    />
  );
}
