// Speed-to-lead (issue 14; decisions 140, 141): how long a lead waited for its first human answer.

/**
 * What counted as the first answer: a claim, a call (the lead's phone link or Call button records one), a status
 * change. "created" marks a lead a sales rep typed in for a customer already in front of them: answered at once and
 * left out of the figures, where it would read as an instant answer.
 */
export const FIRST_RESPONSE_KINDS = ["claim", "call", "status", "created"] as const;
export type FirstResponseKind = (typeof FIRST_RESPONSE_KINDS)[number];

/** The two marks the figures report (share answered within). */
export const SPEED_TO_LEAD_MARKS_MINUTES = [5, 15] as const;

/** A lead still unanswered this long e-mails management, unless the dealership set another time (decision 142). */
export const DEFAULT_UNATTENDED_LEAD_MINUTES = 15;
export const UNATTENDED_LEAD_MINUTES_MIN = 1;
export const UNATTENDED_LEAD_MINUTES_MAX = 24 * 60;

/** The periods of the figures, in days on the dealership's clock (today counts as one). */
export const SPEED_TO_LEAD_PERIODS = [1, 7, 30, 90, 365] as const;
export const SPEED_TO_LEAD_DASHBOARD_DAYS = 7;

/** "45 s", "4 min", "1 h 5 min", "2 d 3 h": a waiting time as a person reads it. */
export function formatResponseTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return "—";
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}
