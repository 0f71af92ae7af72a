import { CarFront } from "lucide-react";
import { cn } from "../../lib/utils";

/** The Showroom mark and word. */
export function Brand({ className, subtitle, inverted = false }: { className?: string; subtitle?: string; inverted?: boolean }) {
  return (
    <div className={cn("flex items-center gap-2.5", className)}>
      <span
        className={cn(
          "flex size-9 items-center justify-center rounded-lg shadow-sm",
          inverted ? "bg-white text-primary" : "bg-primary text-primary-foreground",
        )}
      >
        <CarFront className="size-5" aria-hidden="true" />
      </span>
      <span className="flex flex-col leading-none">
        <span className={cn("text-[17px] font-bold tracking-tight", inverted ? "text-white" : "text-foreground")}>Showroom</span>
        {subtitle && <span className={cn("mt-1 text-xs font-medium", inverted ? "text-white/75" : "text-muted-foreground")}>{subtitle}</span>}
      </span>
    </div>
  );
}
