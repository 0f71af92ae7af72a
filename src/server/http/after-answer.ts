import type { FastifyReply } from "fastify";
import type { Db } from "../db/client";

// Work a request starts but its answer must not wait for (decision 170: the password-reset request answers before it
// looks the e-mail up, so the answer takes the same time whether or not an account has it). The work runs once the
// answer has gone out; a failure is logged. Work under way is tracked per database, so the app's close and the tests
// can wait for it (`settleAfterAnswer`).

const pending = new WeakMap<Db, Set<Promise<void>>>();

export function afterAnswer(reply: FastifyReply, work: () => Promise<void>): void {
  const { db, log } = reply.server;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    const running = work().catch((error: unknown) => log.error({ err: error }, "work after the answer failed"));
    let set = pending.get(db);
    if (!set) pending.set(db, (set = new Set()));
    set.add(running);
    void running.finally(() => set.delete(running));
  };
  // Sent, or the client went away first: the work was asked for either way.
  reply.raw.once("finish", start);
  reply.raw.once("close", start);
}

/** Resolves when no work started after an answer is still running on this database. */
export async function settleAfterAnswer(db: Db): Promise<void> {
  for (let set = pending.get(db); set && set.size > 0; set = pending.get(db)) await Promise.allSettled([...set]);
}
