import { ChevronDown } from "lucide-react";
import { lazy, Suspense } from "react";
import { fullName } from "../../../shared/format";
import type { CurrentUser } from "../../../shared/schemas/responses/auth";
import { useAuth } from "../../auth/auth-provider";
import { useFirstScreenDrawn } from "../../lib/first-screen";
import { cn } from "../../lib/utils";
import { Avatar } from "../ui/avatar";

// The header's account menu (part 1 §2.9). Its face is drawn with the first screen; the menu (radix, with its
// positioning library) downloads right after, and until then the button is shown disabled (issue 12, decision 070).

export interface UserMenuProps {
  roleLabel: string | null;
  tone?: "light" | "dark";
}

const UserMenuDropdown = lazy(() => import("./user-menu-dropdown").then((m) => ({ default: m.UserMenuDropdown })));

/** Header user menu (part 1 §2.9): full name or e-mail, a role label, Profile (when that page exists) and Sign Out. */
export function UserMenu({ roleLabel, tone = "light" }: UserMenuProps) {
  const { user } = useAuth();
  const drawn = useFirstScreenDrawn();
  if (!user) return null;
  const name = fullName(user) || user.email;
  const waiting = (
    <button type="button" disabled className={userMenuTriggerClass(tone)}>
      <UserMenuFace user={user} name={name} roleLabel={roleLabel} tone={tone} />
    </button>
  );
  if (!drawn) return waiting;
  return (
    <Suspense fallback={waiting}>
      <UserMenuDropdown roleLabel={roleLabel} tone={tone} />
    </Suspense>
  );
}

export function userMenuTriggerClass(tone: UserMenuProps["tone"]): string {
  return cn(
    "flex items-center gap-2.5 rounded-lg py-1 pl-1 pr-1.5 text-left outline-none transition focus-visible:ring-[3px] sm:pr-2.5",
    tone === "dark" ? "text-white hover:bg-white/10 focus-visible:ring-white/40" : "hover:bg-muted focus-visible:ring-ring/30",
  );
}

export function UserMenuFace({ user, name, roleLabel, tone }: { user: CurrentUser; name: string } & UserMenuProps) {
  return (
    <>
      {/* The button's name starts with "Account menu" and contains what it shows (WCAG 2.5.3): no aria-label. */}
      <span className="sr-only">Account menu</span>
      <Avatar person={user} className={cn("size-9 text-sm", tone === "dark" && "bg-white/15 text-white")} />
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
    </>
  );
}
