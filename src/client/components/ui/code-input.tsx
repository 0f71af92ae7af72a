import type * as React from "react";
import { cn } from "../../lib/utils";
import { Input } from "./input";

/** What a code box keeps of what was typed or pasted: its digits, at most `length` of them. */
export function codeDigits(text: string, length: number): string {
  return text.replace(/\D/g, "").slice(0, length);
}

/**
 * A one-time code of `length` digits (an authenticator code, a code sent by e-mail): numeric keyboard, the browser's
 * one-time-code autofill, digits only, one look everywhere. Used like an Input, controlled or registered with
 * react-hook-form: onChange gets the event with the value already cut to its digits (at most `length`).
 */
export function CodeInput({
  length,
  placeholder = "123456",
  className,
  onChange,
  ...props
}: { length: number } & Omit<React.ComponentProps<"input">, "type" | "inputMode" | "autoComplete" | "maxLength">) {
  return (
    <Input
      inputMode="numeric"
      autoComplete="one-time-code"
      // No maxLength: the browser would cut a pasted "123 456" to "123 45" before the digits are taken out.
      placeholder={placeholder}
      className={cn("text-center font-mono text-lg tracking-[0.4em]", className)}
      {...props}
      onChange={(event) => {
        event.target.value = codeDigits(event.target.value, length);
        onChange?.(event);
      }}
    />
  );
}
