import { ChevronDown, LogOut, UserRound } from "lucide-react";
import { Link } from "react-router";
import { fullName } from "../../../shared/format";
import { useAuth } from "../../auth/auth-provider";
import { useRouteExists } from "../../lib/known-routes";
import { cn, initialsOf } from "../../lib/utils";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../ui/dropdown-menu";

/** Header user menu (part 1 §2.9): full name or e-mail, a role label, Profile (when that page exists) and Sign Out. */
export function UserMenu({ roleLabel, tone = "light" }: { roleLabel: string | null; tone?: "light" | "dark" }) {
  const { user, logoutMutation } = useAuth();
  const routeExists = useRouteExists();
  if (!user) return null;
  const name = fullName(user) || user.email;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label="Account menu"
        className={cn(
          "flex items-center gap-2.5 rounded-lg py-1 pl-1 pr-1.5 text-left outline-none transition focus-visible:ring-[3px] sm:pr-2.5",
          tone === "dark" ? "text-white hover:bg-white/10 focus-visible:ring-white/40" : "hover:bg-muted focus-visible:ring-ring/30",
        )}
      >
        <span
          className={cn(
            "flex size-9 items-center justify-center rounded-full text-sm font-semibold",
            tone === "dark" ? "bg-white/15 text-white" : "bg-primary/10 text-primary",
          )}
        >
          {initialsOf(user)}
        </span>
        <span className="hidden min-w-0 flex-col md:flex">
          <span data-testid="user-menu-name" className="max-w-44 truncate text-sm font-semibold leading-tight">
            {name}
          </span>
          {roleLabel && (
            <span data-testid="user-menu-role" className={cn("text-xs leading-tight", tone === "dark" ? "text-white/70" : "text-muted-foreground")}>
              {roleLabel}
            </span>
          )}
        </span>
        <ChevronDown className={cn("hidden size-4 md:block", tone === "dark" ? "text-white/70" : "text-muted-foreground")} aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="font-normal">
          <div className="truncate text-sm font-semibold text-foreground">{name}</div>
          {name !== user.email && <div className="truncate text-xs text-muted-foreground">{user.email}</div>}
          {roleLabel && (
            <div className={cn("mt-1.5 inline-flex rounded-full bg-primary/10 px-2 py-0.5 text-xs font-medium text-primary")}>{roleLabel}</div>
          )}
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {routeExists("/profile") && (
          <DropdownMenuItem asChild>
            <Link to="/profile">
              <UserRound /> Profile
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuItem variant="destructive" onSelect={() => logoutMutation.mutate()} disabled={logoutMutation.isPending}>
          <LogOut /> Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
