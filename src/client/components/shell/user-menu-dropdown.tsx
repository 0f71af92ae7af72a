import { LogOut, UserRound } from "lucide-react";
import { Link } from "react-router";
import { fullName } from "../../../shared/format";
import { useAuth } from "../../auth/auth-provider";
import { useRouteExists } from "../../lib/known-routes";
import { cn } from "../../lib/utils";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "../ui/dropdown-menu";
import { UserMenuFace, userMenuTriggerClass, type UserMenuProps } from "./user-menu";

/** The account menu itself (radix), loaded after the first screen by ./user-menu.tsx. */
export function UserMenuDropdown({ roleLabel, tone = "light" }: UserMenuProps) {
  const { user, logoutMutation } = useAuth();
  const routeExists = useRouteExists();
  if (!user) return null;
  const name = fullName(user) || user.email;
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className={userMenuTriggerClass(tone)}>
        <UserMenuFace user={user} name={name} roleLabel={roleLabel} tone={tone} />
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
