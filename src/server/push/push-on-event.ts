import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { DomainEvent } from "../../shared/events";
import type { Tx } from "../db/client";
import { fixedStatement, runStatement } from "../db/prepared";
import { dealershipUsers } from "../db/schema/dealerships";
import { userTokens } from "../db/schema/users";
import { planNotification, type NotificationPlan } from "../notifications/notification-plan";
import type { PushService } from "./push-service";
import { prunePushRecordsNow, pushPruneDue } from "./retention";

// The dispatcher's once-only push handler (decision 112): the same people and words as the bell (planNotification),
// recorded and queued in the dispatching transaction, so a push is queued exactly once per event and never for an
// event that rolled back.

export type NotificationPlanner = (tx: Tx, event: DomainEvent) => Promise<NotificationPlan | null>;

// Most dealerships have nobody subscribed: asked once per dealership in a dispatch batch, before any planning, by a
// statement prepared once per connection (decision 162).
const subscribedStatement = fixedStatement(
  "push_anyone_subscribed",
  sql`select 1 from ${userTokens} t join ${dealershipUsers} du on du.user_id = t.user_id
    where du.dealership_id = ${sql.placeholder("dealershipId")} and du.active and t.active limit 1`,
);
const subscribedByDispatch = new WeakMap<Tx, Map<string, Promise<boolean>>>();

function anyoneSubscribed(tx: Tx, dealershipId: string): Promise<boolean> {
  let known = subscribedByDispatch.get(tx);
  if (!known) subscribedByDispatch.set(tx, (known = new Map()));
  let answer = known.get(dealershipId);
  if (!answer) {
    answer = runStatement(tx, subscribedStatement, { dealershipId }).then((rows) => rows.length > 0);
    known.set(dealershipId, answer);
  }
  return answer;
}

/**
 * Push is the least of an event's work: a failure here (the queue down, a bad row) must not hold back the event's
 * e-mail and bell, which commit in the same transaction. So it runs in a savepoint, and a failure is logged and
 * dropped instead of failing (and so retrying, then setting aside) the whole event.
 */
export async function pushOnEvent(
  push: PushService,
  tx: Tx,
  event: DomainEvent,
  logger: Pick<Logger, "error">,
  planner: NotificationPlanner = planNotification,
): Promise<void> {
  // Old push records go while events flow, as the bell's do (decisions 103, 158); a failure only waits for next time.
  // Only when due: a savepoint per event costs a claim two statements (bench:statements).
  if (pushPruneDue()) {
    try {
      await tx.transaction((savepoint) => prunePushRecordsNow(savepoint));
    } catch (error) {
      logger.error({ err: error }, "push records not pruned");
    }
  }
  if (!event.dealershipId || !(await anyoneSubscribed(tx, event.dealershipId))) return;
  try {
    await tx.transaction(async (savepoint) => {
      const plan = await planner(savepoint, event);
      if (!plan) return;
      await push.queue(savepoint, {
        type: plan.type,
        title: plan.title,
        message: plan.message,
        url: plan.url,
        leadId: plan.leadId,
        dealershipId: plan.dealershipId,
        targetRoles: plan.targetRoles,
        recipientIds: plan.recipientIds,
      });
    });
  } catch (error) {
    logger.error({ err: error, eventType: event.type }, "push not queued for an event");
  }
}
