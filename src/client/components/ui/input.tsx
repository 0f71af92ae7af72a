import type * as React from "react";
import { cn } from "../../lib/utils";

export const inputClass =
  "flex h-10 w-full min-w-0 rounded-md border border-input bg-card px-3 py-2 text-[15px] text-foreground shadow-xs transition-[border-color,box-shadow] outline-none placeholder:text-subtle-foreground file:border-0 file:bg-transparent file:text-sm file:font-medium focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/25 disabled:cursor-not-allowed disabled:bg-muted disabled:text-muted-foreground read-only:bg-muted/60 aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive/20 sm:text-sm";

export function Input({ className, type = "text", ...props }: React.ComponentProps<"input">) {
  return <input type={type} data-slot="input" className={cn(inputClass, className)} {...props} />;
}
