import { vinFactsText } from "../../shared/vin-decode";
import { cn } from "../lib/utils";

// A vehicle's VIN and what it says (issue 30, decision 189): "VIN KM8JC3D15SU100001" and, below it, "Hyundai · built
// in the United States · model year 2025". Shown on the vehicle card and on the lead page's vehicle of interest.

export function VinFacts({ vin, year, className }: { vin: string; year?: string; className?: string }) {
  const known = year && /^\d{4}$/.test(year) ? Number(year) : undefined;
  const facts = vinFactsText(vin, known);
  return (
    <div className={cn("min-w-0 text-xs", className)} data-testid="vin-facts">
      <p className="break-all">
        <span className="text-muted-foreground">VIN </span>
        <span className="font-mono tracking-tight">{vin}</span>
      </p>
      {facts && <p className="mt-0.5 text-muted-foreground">{facts}</p>}
    </div>
  );
}
