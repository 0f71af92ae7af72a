import { ShieldCheck } from "lucide-react";
import { Link, Outlet } from "react-router";
import { Brand } from "./brand";
import { UserMenu } from "./user-menu";

/** The simplified shell of platform administrators (part 2 §2): only platform administration and the profile. */
export function PlatformAdminShell() {
  return (
    <div className="min-h-dvh bg-background">
      <header className="sticky top-0 z-40 border-b bg-brand-ink text-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6">
          <Link to="/platform-admin" className="rounded-lg outline-none focus-visible:ring-[3px] focus-visible:ring-white/40">
            <Brand inverted subtitle="Platform Administration" />
          </Link>
          <span className="ml-3 hidden items-center gap-1.5 rounded-full bg-white/10 px-2.5 py-1 text-xs font-medium text-white/90 sm:inline-flex">
            <ShieldCheck className="size-3.5" aria-hidden="true" /> Platform admin
          </span>
          <div className="ml-auto">
            <UserMenu roleLabel="Platform Admin" tone="dark" />
          </div>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:py-8">
        <Outlet />
      </main>
    </div>
  );
}
