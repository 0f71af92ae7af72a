import { CalendarPlus, Menu, Plus } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link, NavLink, Outlet, useLocation } from "react-router";
import { ROLE_LABELS } from "../../../shared/constants";
import { can } from "../../../shared/permissions";
import { useCurrentDealership, useRole } from "../../dealerships/dealership-context";
import { NoDealership } from "../../dealerships/NoDealership";
import { FloorToggle } from "../../distribution/FloorToggle";
import { BellSlot } from "../../notifications/BellSlot";
import { LiveShellSlot } from "../../realtime/LiveShellSlot";
import { useFirstScreenDrawn } from "../../lib/first-screen";
import { useRouteExists } from "../../lib/known-routes";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";
import { Brand } from "./brand";
import { DealershipSwitcher } from "./dealership-switcher";
import { bottomBarItems, floatingActions, isItemActive, navItems, orderedFor, showsFloatingActions, type NavItem } from "./nav";
import { NavList } from "./nav-list";
import { UserMenu } from "./user-menu";

// The regular user's shell (part 1 §2.9): header, desktop sidebar, mobile menu and bottom bar, floating actions.
// The phone menu's drawer downloads after the first screen; its button is disabled until then (issue 12).
const MobileMenu = lazy(() => import("./mobile-menu").then((m) => ({ default: m.MobileMenu })));

const PAGES_WITHOUT_DEALERSHIP = ["/profile"];

function useVisibleNavItems(): NavItem[] {
  const routeExists = useRouteExists();
  const { role } = useRole();
  return orderedFor(navItems.filter((item) => routeExists(item.path) && (!item.capability || can(role, item.capability))), role);
}

function MobileBottomBar({ items }: { items: NavItem[] }) {
  const { pathname } = useLocation();
  const barItems = bottomBarItems(items);
  if (barItems.length === 0) return null;
  return (
    <nav
      aria-label="Quick"
      data-bottom-bar
      className="fixed inset-x-0 bottom-0 z-30 border-t bg-card/95 pb-[env(safe-area-inset-bottom)] backdrop-blur lg:hidden"
    >
      <ul className="mx-auto flex max-w-md items-stretch justify-around">
        {barItems.map((item) => {
          const active = isItemActive(item, pathname);
          const Icon = item.icon;
          return (
            <li key={item.path} className="flex-1">
              <NavLink
                to={item.path}
                aria-current={active ? "page" : undefined}
                className={cn("flex flex-col items-center gap-1 py-2 text-[11px] font-medium", active ? "text-primary" : "text-muted-foreground")}
              >
                <Icon className="size-5" aria-hidden="true" />
                {item.bottomBar}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function useFloatingActions() {
  const { pathname } = useLocation();
  const routeExists = useRouteExists();
  return showsFloatingActions(pathname) ? floatingActions.filter((a) => routeExists(a.path)) : [];
}

/**
 * The spec's desktop "floating" buttons (part 1 §2.9), drawn in the header instead: floating over the page they hid
 * row actions (Claim, Call, Cancel, the Create Lead button itself) at 1280x800, and nothing may cover a control
 * (issue 12, decision 071).
 */
function QuickActions() {
  const actions = useFloatingActions();
  if (actions.length === 0) return null;
  return (
    <div className="hidden items-center gap-2 lg:flex" data-testid="quick-actions">
      {actions.map((action) => (
        <Button key={action.path} asChild variant={action.variant} size="sm">
          <Link to={action.path}>
            {action.path === "/leads/create" ? <Plus aria-hidden="true" /> : <CalendarPlus aria-hidden="true" />}
            {action.label}
          </Link>
        </Button>
      ))}
    </div>
  );
}

function PhoneMenu({ items }: { items: NavItem[] }) {
  const drawn = useFirstScreenDrawn();
  const waiting = (
    <Button variant="ghost" size="icon" className="lg:hidden" aria-label="Open menu" disabled>
      <Menu className="size-5" />
    </Button>
  );
  if (!drawn) return waiting;
  return (
    <Suspense fallback={waiting}>
      <MobileMenu items={items} />
    </Suspense>
  );
}

export function AppShell() {
  const items = useVisibleNavItems();
  const { dealership, dealerships, isLoading: dealershipsLoading, isError } = useCurrentDealership();
  const { pathname } = useLocation();
  // Someone in no dealership (never added, or removed) sees the same answer on every dealership page, instead of
  // skeletons waiting for a dealership that will not come (issue 12). Their profile still opens.
  const noDealership = !dealershipsLoading && !isError && dealerships.length === 0 && !PAGES_WITHOUT_DEALERSHIP.includes(pathname);
  const { role } = useRole();
  const hasBottomBar = items.some((i) => i.bottomBar);

  return (
    <div className="min-h-dvh bg-background">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 focus:rounded-md focus:bg-card focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:shadow-lg"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 flex h-16 items-center gap-3 border-b bg-card/95 px-3 backdrop-blur sm:px-4 lg:px-6">
        <PhoneMenu items={items} />
        <Link to="/" className="rounded-lg outline-none focus-visible:ring-[3px] focus-visible:ring-ring/30" aria-label="Showroom home">
          <Brand />
        </Link>
        <div className="ml-2 hidden min-w-0 sm:block lg:ml-10">
          <DealershipSwitcher className="max-w-72" />
        </div>
        <div className="ml-auto flex items-center gap-3">
          <QuickActions />
          <FloorToggle />
          <BellSlot />
          <UserMenu roleLabel={role ? ROLE_LABELS[role] : null} />
        </div>
      </header>

      <div className="flex">
        <aside className="sticky top-16 hidden h-[calc(100dvh-4rem)] w-64 shrink-0 flex-col border-r bg-sidebar lg:flex">
          <div className="flex-1 overflow-y-auto px-3 py-5">
            <NavList items={items} />
          </div>
          {dealership && (
            <div className="border-t px-5 py-4">
              <p className="text-xs font-medium uppercase tracking-wider text-muted-foreground">Dealership</p>
              <p className="mt-1 truncate text-sm font-semibold">{dealership.name}</p>
              {dealership.address && <p className="truncate text-xs text-muted-foreground">{dealership.address}</p>}
            </div>
          )}
        </aside>
        <main
          id="main"
          // Focusable by the skip link only, so that the next Tab starts inside the page.
          tabIndex={-1}
          className={cn("min-w-0 flex-1 outline-none px-4 py-6 sm:px-6 lg:px-8 lg:py-8", hasBottomBar && "pb-24 lg:pb-8")}
        >
          {noDealership ? <NoDealership /> : <Outlet />}
        </main>
      </div>
      <MobileBottomBar items={items} />
      <LiveShellSlot />
    </div>
  );
}
