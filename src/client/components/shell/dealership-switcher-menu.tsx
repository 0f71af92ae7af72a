import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { ROLE_LABELS } from "../../../shared/constants";
import { useCurrentDealership } from "../../dealerships/dealership-context";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../ui/dropdown-menu";
import { SwitcherFace, switcherTriggerClass } from "./dealership-switcher";
import { pageOpensAfterSwitch } from "./nav";

/** The switcher's menu itself (radix), loaded after the first screen by ./dealership-switcher.tsx. */
export function DealershipSwitcherMenu({ className }: { className?: string }) {
  const { dealerships, dealership, switchDealership, isSwitching } = useCurrentDealership();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // A page the new role may not open (or a record of the dealership left behind) is left for the dashboard first, with
  // the role the list already knows, and the switch is made once the dashboard is on screen. Switching first (or while
  // the router's transition still showed the old page) let that page draw "Access Denied" for a moment (issue 30).
  const switchOnArrival = useRef<string | null>(null);
  useEffect(() => {
    const id = switchOnArrival.current;
    if (id === null || pathname !== "/") return;
    switchOnArrival.current = null;
    switchDealership(id);
  }, [pathname, switchDealership]);
  if (dealerships.length <= 1 || !dealership) return null;
  const switchTo = (id: string) => {
    const role = dealerships.find((d) => d.id === id)?.role ?? null;
    if (pageOpensAfterSwitch(pathname, role)) return switchDealership(id);
    switchOnArrival.current = id;
    navigate("/", { replace: true });
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger data-testid="dealership-switcher" className={switcherTriggerClass(className)}>
        <SwitcherFace name={dealership.name} isSwitching={isSwitching} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72">
        <DropdownMenuLabel>Your dealerships</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuRadioGroup value={dealership.id} onValueChange={(id) => id !== dealership.id && switchTo(id)}>
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
