// Business constants from the specification (part 1 §9, part 2 §9). One place, both sides.

export const DEALERSHIP_ROLES = ["sales", "frontDesk", "management"] as const;
export type DealershipRole = (typeof DEALERSHIP_ROLES)[number];

export const ROLE_LABELS: Record<DealershipRole | "superAdmin", string> = {
  sales: "Sales",
  frontDesk: "Front Desk",
  management: "Management",
  superAdmin: "Super Admin",
};

/** Lead statuses selectable in edit (part 2 §4); new and claimed are the workflow states (part 1 §3). */
export const LEAD_STATUSES = ["new", "claimed", "contacted", "qualified", "inProgress", "closed", "lost"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const LEAD_STATUS_LABELS: Record<LeadStatus, string> = {
  new: "New",
  claimed: "Claimed",
  contacted: "Contacted",
  qualified: "Qualified",
  inProgress: "In Progress",
  closed: "Closed",
  lost: "Lost",
};

export const APPOINTMENT_STATUSES = ["scheduled", "arrived", "completed", "cancelled", "no-show"] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
/** How people read an appointment's status in e-mails, the bell and push (issue 29: "No Show", not "no-show"). */
export const APPOINTMENT_STATUS_LABELS: Record<AppointmentStatus, string> = {
  scheduled: "Scheduled",
  arrived: "Arrived",
  completed: "Completed",
  cancelled: "Cancelled",
  "no-show": "No Show",
};

export const INVITE_STATUSES = ["pending", "accepted", "expired"] as const;
export const EMAIL_LOG_STATUSES = ["sent", "failed", "bounced"] as const;

/** Every 30 minutes from 09:00 to 17:30: 18 slots (part 1 §9). */
export const APPOINTMENT_TIME_SLOTS: readonly string[] = Array.from({ length: 18 }, (_, i) => {
  const minutes = 9 * 60 + i * 30;
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
});
export const DEFAULT_APPOINTMENT_DURATION = 60;

export const PASSWORD_MIN_LENGTH = 6;
export const VERIFICATION_CODE_LENGTH = 6;
export const DEFAULT_TIMEZONE = "America/Toronto";
export const ID_LENGTH = 21;

export const RECENT_LEADS_SHOWN = 5;
export const UPCOMING_APPOINTMENTS_SHOWN = 5;
export const APPOINTMENT_SKELETONS = 3;
export const LEAD_ROW_SKELETONS = 5;

const MINUTE = 60_000;
/** TanStack Query freshness per data kind (part 1 §9). */
export const CACHE_TIMES = {
  defaultStale: 5 * MINUTE,
  defaultGc: 10 * MINUTE,
  platformAdminStatusStale: 30_000,
  metricsStale: MINUTE,
  leadsStale: 2 * MINUTE,
  newLeadsStale: 30_000,
  myLeadsStale: 2 * MINUTE,
  dealershipsStale: 10 * MINUTE,
  appointmentsStale: 2 * MINUTE,
  todayAppointmentsStale: 30_000,
} as const;

export const READ_RETRIES = 2;
export const WRITE_RETRIES = 1;

export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const LOGGED_OUT_REDIRECT_DELAY_MS = 500;
export const CLAIMED_LABEL_MS = 1500;
export const SCHEDULED_REDIRECT_DELAY_MS = 1200;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** Local storage key holding a path to open after login (part 1 §2.1, part 2 email-redirect). */
export const EMAIL_REDIRECT_STORAGE_KEY = "emailRedirectPath";
