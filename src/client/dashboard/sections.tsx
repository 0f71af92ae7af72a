import type { ComponentType } from "react";
import type { DealershipRole } from "../../shared/constants";
import type { DealershipSummary } from "../../shared/schemas/responses/auth";
import { UpcomingAppointments } from "../appointments/UpcomingAppointments";
import { MetricCards } from "./MetricCards";
import { RecentLeads } from "./RecentLeads";
import { SpeedToLeadCard } from "./SpeedToLeadCard";
import { TodayAgenda } from "./TodayAgenda";

// The dashboard's sections, top to bottom (part 1 §2.3). Each area adds its own with one line, e.g.
//   { key: "metrics", Component: DashboardMetrics, span: "full" },
//   { key: "recent-leads", Component: RecentLeads, span: "wide" },
//   { key: "upcoming", Component: UpcomingAppointments, span: "narrow" },
// "full" takes the whole row; on wide screens a "wide" section and the "narrow" one after it share a row (2:1).

export interface DashboardSectionProps {
  dealership: DealershipSummary;
  role: DealershipRole | null;
}

export interface DashboardSection {
  key: string;
  Component: ComponentType<DashboardSectionProps>;
  span?: "full" | "wide" | "narrow";
}

export const dashboardSections: DashboardSection[] = [
  { key: "metrics", Component: MetricCards, span: "full" },
  { key: "recent-leads", Component: RecentLeads, span: "wide" },
  // Upcoming appointments sits beside Recent Leads (the "wide" section placed before it), part 1 §2.3.
  { key: "upcoming", Component: UpcomingAppointments, span: "narrow" },
  // My Day's first lines (issue 30, decision 234); on wide screens beside Speed to Lead.
  { key: "today", Component: TodayAgenda, span: "narrow" },
  // How fast leads were answered, last 7 days (issue 14, decision 141).
  { key: "speed-to-lead", Component: SpeedToLeadCard, span: "wide" },
];

/**
 * On a phone the sections are one column and the first screen holds about one of them (decision 234): a rep gets
 * today's agenda (three lines) and then the leads to claim, both starting on the first screen, before the day's
 * numbers; front desk, whose own agenda is mostly empty, the leads first; management, whose job the numbers are, keeps
 * them first. Wider screens keep the order above. The page's order is the DOM's, so a screen reader and the keyboard
 * meet the sections as they are seen.
 */
export const PHONE_ORDER: Record<DealershipRole, readonly string[]> = {
  sales: ["today", "recent-leads", "metrics", "upcoming", "speed-to-lead"],
  frontDesk: ["recent-leads", "today", "metrics", "upcoming", "speed-to-lead"],
  management: ["metrics", "recent-leads", "today", "upcoming", "speed-to-lead"],
};

/** The sections in the order this screen shows them. */
export function sectionsFor(role: DealershipRole | null, phone: boolean): DashboardSection[] {
  if (!phone || !role) return dashboardSections;
  const order = PHONE_ORDER[role];
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return [...dashboardSections].sort((a, b) => rank(a.key) - rank(b.key));
}
