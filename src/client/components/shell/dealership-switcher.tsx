import { Building2, ChevronsUpDown } from "lucide-react";
import { ROLE_LABELS } from "../../../shared/constants";
import { useCurrentDealership } from "../../dealerships/dealership-context";
import { cn } from "../../lib/utils";
import { Spinner } from "../ui/spinner";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../ui/dropdown-menu";

/** Header dealership switcher: only when the user belongs to more than one dealership (part 1 §2.9). */
export function DealershipSwitcher({ className }: { className?: string }) {
  const { dealerships, dealership, switchDealership, isSwitching } = useCurrentDealership();
  if (dealerships.length <= 1 || !dealership) return null;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label="Switch dealership"
        data-testid="dealership-switcher"
        className={cn(
          "flex h-10 min-w-0 items-center gap-2 rounded-lg border bg-card px-3 text-left text-sm font-medium shadow-xs outline-none transition hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/30",
          className,
        )}
      >
        {isSwitching ? <Spinner className="text-primary" /> : <Building2 className="size-4 shrink-0 text-primary" aria-hidden="true" />}
        <span className="truncate">{dealership.name}</span>
        <ChevronsUpDown className="ml-auto size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72">
        <DropdownMenuLabel>Your dealerships</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={dealership.id} onValueChange={(id) => id !== dealership.id && switchDealership(id)}>
          {dealerships.map((d) => (
            <DropdownMenuRadioItem key={d.id} value={d.id} className="items-start">
              <span className="flex min-w-0 flex-col">
                <span className="truncate font-medium">{d.name}</span>
                <span className="truncate text-xs text-muted-foreground">{ROLE_LABELS[d.role]}</span>
              </span>
            </DropdownMenuRadioItem>
          ))}
        </DropdownMenuRadioGroup>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
