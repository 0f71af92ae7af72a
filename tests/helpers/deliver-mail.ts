import type { FastifyInstance } from "fastify";

/** Runs every pending domain event's handlers, then delivers every queued mail: a test reads the mail after this. */
export async function deliverMail(app: FastifyInstance): Promise<void> {
  await app.events.flush();
  await app.mailer.drain();
}
