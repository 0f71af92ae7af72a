import { Loader2 } from "lucide-react";
import { cn } from "../../lib/utils";

export function Spinner({ className }: { className?: string }) {
  return <Loader2 aria-hidden="true" className={cn("size-4 animate-spin", className)} />;
}

/** A centred spinner with a line of text, for whole-screen waits ("Loading dashboard..."). */
export function FullScreenSpinner({ label }: { label: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-dvh flex-col items-center justify-center gap-3 bg-background text-muted-foreground">
      <Spinner className="size-7 text-primary" />
      <p className="text-sm font-medium">{label}</p>
    </div>
  );
}
