import { and, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import type { MaintenanceReport } from "../../shared/schemas/responses/platform";
import { INVITE_VALID_DAYS } from "../../shared/schemas/team";
import type { Db } from "../db/client";
import { dealershipInvites } from "../db/schema/dealerships";
import { domainEvents } from "../db/schema/events";
import { emailVerificationCodes } from "../db/schema/notifications";
import { loginAttempts, sessions } from "../db/schema/users";
import { recordAudit, type PlatformActor } from "./audit";

// System Maintenance (part 2 §2 Quick Actions; decision 094): real housekeeping instead of the spec's "in development"
// toast. Everything it removes is already dead to the app; it only stops the tables from growing for ever.

/** Dispatched domain events are kept this long (decision 051 left their pruning to this). */
export const EVENT_RETENTION_DAYS = 30;
/** The longest window any attempt counter uses (an invitation's wrong-code tries, decision 008). */
const LONGEST_COUNTER_DAYS = INVITE_VALID_DAYS;

const daysAgo = (days: number) => sql`now() - make_interval(days => ${days})`;

export async function runMaintenance(db: Db, actor: PlatformActor): Promise<MaintenanceReport> {
  return db.transaction(async (tx) => {
    // A session's idle expiry never passes its absolute one, so `expire` covers both.
    const expiredSessions = await tx.delete(sessions).where(lte(sessions.expire, sql`now()`)).returning({ sid: sessions.sid });
    // Expired invitations no longer let anyone join; inviting the person again makes a new one. Their codes go with them.
    const expiredInvitations = await tx
      .delete(dealershipInvites)
      .where(and(inArray(dealershipInvites.status, ["pending", "expired"]), lte(dealershipInvites.expiresAt, sql`now()`)))
      .returning({ id: dealershipInvites.id });
    const verificationCodes = await tx
      .delete(emailVerificationCodes)
      .where(or(lte(emailVerificationCodes.expiresAt, sql`now()`), emailVerificationCodes.isUsed))
      .returning({ id: emailVerificationCodes.id });
    // A counter whose window began longer ago than any window lasts, and that blocks nobody, counts nothing any more.
    const throttleRows = await tx
      .delete(loginAttempts)
      .where(
        and(
          lte(loginAttempts.windowStart, daysAgo(LONGEST_COUNTER_DAYS)),
          or(isNull(loginAttempts.blockedUntil), lte(loginAttempts.blockedUntil, sql`now()`)),
        ),
      )
      .returning({ key: loginAttempts.key });
    // Pending and set-aside events stay: only what every subscriber has handled is pruned.
    const dispatchedEvents = await tx
      .delete(domainEvents)
      .where(and(isNotNull(domainEvents.dispatchedAt), lte(domainEvents.dispatchedAt, daysAgo(EVENT_RETENTION_DAYS))))
      .returning({ id: domainEvents.id });

    const report = {
      expiredSessions: expiredSessions.length,
      expiredInvitations: expiredInvitations.length,
      verificationCodes: verificationCodes.length,
      throttleRows: throttleRows.length,
      dispatchedEvents: dispatchedEvents.length,
    };
    const message =
      `Removed ${report.expiredSessions} expired session${report.expiredSessions === 1 ? "" : "s"}, ` +
      `${report.expiredInvitations} expired invitation${report.expiredInvitations === 1 ? "" : "s"}, ` +
      `${report.verificationCodes} used or expired code${report.verificationCodes === 1 ? "" : "s"}, ` +
      `${report.throttleRows} old sign-in counter${report.throttleRows === 1 ? "" : "s"} and ` +
      `${report.dispatchedEvents} old event${report.dispatchedEvents === 1 ? "" : "s"}.`;
    await recordAudit(tx, actor, { action: "maintenance_run", summary: `Ran system maintenance: ${message.charAt(0).toLowerCase()}${message.slice(1)}`, details: report });
    return { message, ...report };
  });
}
