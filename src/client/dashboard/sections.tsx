import type { ComponentType } from "react";
import type { DealershipRole } from "../../shared/constants";
import type { DealershipSummary } from "../../shared/schemas/responses/auth";
import { UpcomingAppointments } from "../appointments/UpcomingAppointments";
import { MetricCards } from "./MetricCards";
import { RecentLeads } from "./RecentLeads";
import { SpeedToLeadCard } from "./SpeedToLeadCard";

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
  // How fast leads were answered, last 7 days (issue 14, decision 141).
  { key: "speed-to-lead", Component: SpeedToLeadCard, span: "full" },
];
