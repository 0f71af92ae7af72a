import type { LucideIcon } from "lucide-react";
import { ArchiveRestore, BarChart3, CalendarDays, CalendarPlus, Car, Inbox, LayoutDashboard, ListTodo, ShieldCheck, TrendingUp, Users } from "lucide-react";
import type { ComponentType } from "react";
import type { DealershipRole } from "../../../shared/constants";
import { can, type Capability } from "../../../shared/permissions";
import { NewLeadsBadge } from "../../leads/NewLeadsBadge";

// The app shell's navigation (spec part 1 §2.9), one entry per destination. The sidebar, the mobile menu and the
// mobile bottom bar are all drawn from this array. An item shows only when
//   - its path is routed (src/client/routes.tsx) — so add the route and the item together, and
//   - the user has `capability` in the current dealership (src/shared/permissions.ts), if one is given.
// Order in the array is the order on screen. Add an item with one line, e.g.
//   { path: "/leads/new", label: "New Leads", icon: Inbox, capability: "accessNewLeads", badge: NewLeadsCountBadge, bottomBar: "Leads" },

export interface NavItem {
  path: string;
  /** Text in the sidebar and menu; a function when it depends on the role ("All Clients" vs "My Clients"). */
  label: string | ((role: DealershipRole | null) => string);
  icon: LucideIcon;
  /** Shown only to roles with this capability. */
  capability?: Capability;
  /** "admin" items are grouped under an Admin heading. */
  section?: "main" | "admin";
  /** Other paths on which this item is highlighted (e.g. /dashboard for the dashboard at /). */
  alsoActiveOn?: string[];
  /** Highlight for every path below this one (e.g. /leads/detail/... under a leads item): false by default. */
  matchChildren?: boolean;
  /** A component drawing a count next to the label (it reads its own data), e.g. the new-leads count. */
  badge?: ComponentType;
  /** Also in the mobile bottom bar, with this short label. */
  bottomBar?: string;
  /** Roles for whom this item comes first in the sidebar and menu (My Day for sales, issue 27). */
  firstFor?: DealershipRole[];
}

export const navItems: NavItem[] = [
  { path: "/", label: "Dashboard", icon: LayoutDashboard, alsoActiveOn: ["/dashboard"] },
  { path: "/my-day", label: "My Day", icon: ListTodo, firstFor: ["sales"] },
  { path: "/leads/new", label: "New Leads", icon: Inbox, capability: "accessNewLeads", badge: NewLeadsBadge, bottomBar: "Leads" },
  { path: "/leads/my", label: (role) => (can(role, "seeAllClaimedLeads") ? "All Clients" : "My Clients"), icon: Users, bottomBar: "Clients" },
  { path: "/calendar", label: "Calendar", icon: CalendarDays, bottomBar: "Calendar" },
  { path: "/appointments/new", label: "New Appointment", icon: CalendarPlus },
  { path: "/test-drives", label: "Test Drives", icon: Car, matchChildren: true, alsoActiveOn: ["/book-test-drive"], bottomBar: "Test Drives" },
  { path: "/admin", label: "Admin Panel", icon: ShieldCheck, capability: "managementAccess", section: "admin" },
  { path: "/leads/deleted", label: "Recently Deleted", icon: ArchiveRestore, capability: "restoreDeletedLeads", section: "admin" },
  { path: "/sales-analytics", label: "Sales Rep Analytics", icon: TrendingUp, capability: "managementAccess", section: "admin" },
  { path: "/tdus", label: "Test Drive Analytics", icon: BarChart3, capability: "managementAccess", section: "admin" },
];

/** The mobile bottom bar keeps the spec's order (part 1 §2.9: clients, Leads, Calendar, Test Drives), not the sidebar's. */
export const BOTTOM_BAR_ORDER = ["/leads/my", "/leads/new", "/calendar", "/test-drives"];

export function bottomBarItems(items: NavItem[]): NavItem[] {
  const rank = (item: NavItem) => {
    const i = BOTTOM_BAR_ORDER.indexOf(item.path);
    return i === -1 ? BOTTOM_BAR_ORDER.length : i;
  };
  return items.filter((i) => i.bottomBar).sort((a, b) => rank(a) - rank(b));
}

/** Desktop floating actions (part 1 §2.9), shown on the paths below when their page exists. */
export const floatingActions = [
  { path: "/leads/create", label: "Add New Lead", variant: "default" },
  { path: "/appointments/new", label: "Schedule Appointment", variant: "outline" },
] as const;

export const FLOATING_ACTION_PATHS = ["/", "/dashboard", "/leads", "/calendar", "/test-drives", "/book-test-drive"];

export function showsFloatingActions(pathname: string): boolean {
  return FLOATING_ACTION_PATHS.some((p) => (p === "/" ? pathname === "/" : pathname === p || pathname.startsWith(`${p}/`)));
}

/** The items in the role's order: those first for this role (firstFor) ahead of the rest, each group as listed. */
export function orderedFor(items: NavItem[], role: DealershipRole | null): NavItem[] {
  const first = (item: NavItem) => Boolean(role && item.firstFor?.includes(role));
  return [...items.filter(first), ...items.filter((item) => !first(item))];
}

export function labelOf(item: NavItem, role: DealershipRole | null): string {
  return typeof item.label === "function" ? item.label(role) : item.label;
}

export function isItemActive(item: NavItem, pathname: string): boolean {
  const paths = [item.path, ...(item.alsoActiveOn ?? [])];
  return paths.some((p) => pathname === p || (item.matchChildren === true && pathname.startsWith(`${p}/`)));
}

// Pages of one record (a lead, a test drive) belong to the dealership they were opened in.
const RECORD_PAGES = [/^\/leads\/detail\/[^/]+$/, /^\/test-drives\/(?!book$)[^/]+$/];

/**
 * Whether this page still opens after switching to a dealership where the person has this role: not a record of
 * the dealership left behind, and the capability of the page's navigation item (issue 12: admin → sales used to
 * leave them on Access Denied).
 */
export function pageOpensAfterSwitch(pathname: string, role: DealershipRole | null): boolean {
  if (RECORD_PAGES.some((page) => page.test(pathname))) return false;
  const item = navItems.find((i) => i.path === pathname);
  return !item?.capability || can(role, item.capability);
}
