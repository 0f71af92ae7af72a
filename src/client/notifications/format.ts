import { BADGE_CAP } from "../realtime/constants";

// How the bell shows times and counts (part 2 §2 Notifications, §9).

const HOUR = 3_600_000;

/** 'Just now' under an hour, then whole hours ('5h ago') under a day, then whole days ('3d ago'). */
export function notificationAge(createdAt: string, now: number = Date.now()): string {
  const hours = Math.floor((now - new Date(createdAt).getTime()) / HOUR);
  if (!Number.isFinite(hours) || hours < 1) return "Just now";
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/** The badge: nothing at 0, the number up to 99, then '99+'. */
export function badgeText(count: number): string | null {
  if (count <= 0) return null;
  return count > BADGE_CAP ? `${BADGE_CAP}+` : String(count);
}

/** '{n} unread notification(s)' as the spec writes it. */
export function unreadSummary(count: number): string {
  return `${count} unread notification${count === 1 ? "" : "s"}`;
}

/** The bell button's name: says how many are unread, and contains what the badge shows (WCAG 2.5.3). */
export function bellLabel(count: number): string {
  const badge = badgeText(count);
  return badge ? `Notifications, ${badge} unread` : "Notifications, none unread";
}
