import { NavLink, useLocation } from "react-router";
import { useRole } from "../../dealerships/dealership-context";
import { cn } from "../../lib/utils";
import { isItemActive, labelOf, type NavItem } from "./nav";

/** The sidebar's and the phone menu's list of destinations (part 1 §2.9), grouped under an Admin heading. */
export function NavList({ items, onNavigate }: { items: NavItem[]; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const { role } = useRole();
  const sections = [
    { key: "main", title: null, items: items.filter((i) => (i.section ?? "main") === "main") },
    { key: "admin", title: "Admin", items: items.filter((i) => i.section === "admin") },
  ].filter((s) => s.items.length > 0);
  return (
    <nav aria-label="Main" className="flex flex-col gap-6">
      {sections.map((section) => (
        <div key={section.key} className="flex flex-col gap-1">
          {section.title && <p className="px-3 pb-1 text-xs font-semibold uppercase tracking-wider text-muted-foreground">{section.title}</p>}
          {section.items.map((item) => {
            const active = isItemActive(item, pathname);
            const Icon = item.icon;
            const Badge = item.badge;
            return (
              <NavLink
                key={item.path}
                to={item.path}
                onClick={onNavigate}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "group flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors",
                  active ? "bg-primary/10 text-primary" : "text-secondary-foreground hover:bg-muted hover:text-foreground",
                )}
              >
                <Icon className={cn("size-[18px] shrink-0", active ? "text-primary" : "text-muted-foreground group-hover:text-foreground")} aria-hidden="true" />
                <span className="flex-1 truncate">{labelOf(item, role)}</span>
                {Badge && <Badge />}
              </NavLink>
            );
          })}
        </div>
      ))}
    </nav>
  );
}
