import { desc } from "drizzle-orm";
import { fullName } from "../../shared/format";
import type { PlatformActivity } from "../../shared/schemas/responses/platform";
import type { PlatformAction } from "../../shared/schemas/platform";
import type { Db, Tx } from "../db/client";
import { platformAuditLog } from "../db/schema/platform";

// The audit log (decision 093). Each platform action writes its entry in its own transaction, so an action that
// rolls back leaves no entry and a committed one always has it. Recent Activity on the Overview reads it back.

/** Who acted: the signed-in platform admin. */
export interface PlatformActor {
  id: string;
  email: string;
  firstName?: string | null;
  lastName?: string | null;
}

export function actorName(actor: PlatformActor): string {
  return fullName(actor) || actor.email;
}

export interface AuditEntry {
  action: PlatformAction;
  summary: string;
  dealershipId?: string | null;
  subjectId?: string | null;
  details?: Record<string, unknown>;
}

export async function recordAudit(tx: Db | Tx, actor: PlatformActor, entry: AuditEntry): Promise<void> {
  await tx.insert(platformAuditLog).values({
    actorId: actor.id,
    actorName: actorName(actor),
    action: entry.action,
    summary: entry.summary,
    dealershipId: entry.dealershipId ?? null,
    subjectId: entry.subjectId ?? null,
    details: entry.details ?? {},
  });
}

/** The newest entries first. */
export async function recentActivity(db: Db, limit: number): Promise<PlatformActivity[]> {
  const rows = await db
    .select({
      id: platformAuditLog.id,
      action: platformAuditLog.action,
      actorName: platformAuditLog.actorName,
      summary: platformAuditLog.summary,
      createdAt: platformAuditLog.createdAt,
    })
    .from(platformAuditLog)
    .orderBy(desc(platformAuditLog.createdAt), desc(platformAuditLog.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** { field: [before, after] } for the fields an edit changed. */
export function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [key, value] of Object.entries(after)) if (value !== undefined && before[key] !== value) changes[key] = [before[key], value];
  return changes;
}
