import type { FastifyInstance } from "fastify";
import { settleAfterAnswer } from "../../src/server/http/after-answer";

/**
 * Finishes work requests left running after their answer (decision 170), runs every pending domain event's handlers,
 * then delivers every queued mail: a test reads the mail after this.
 */
export async function deliverMail(app: FastifyInstance): Promise<void> {
  await settleAfterAnswer(app.db);
  await app.events.flush();
  await app.mailer.drain();
}
