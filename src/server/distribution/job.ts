import type { Logger } from "pino";
import type { Database } from "../db/client";
import { createJobQueue } from "../jobs/job-queue";
import { handOutWaitingLeads } from "./hand-out";

// Leads nobody claimed in the dealership's minutes go to the reps on the floor (decision 201): a pg-boss schedule
// (kept in the database, one for every process) runs the hand-out every minute in whichever process takes the job, so
// it survives restarts and runs once with several processes; no timer in memory.

export const LEAD_DISTRIBUTION_QUEUE = "lead-distribution";
const EVERY_MINUTE = "* * * * *";

export interface LeadDistributionJob {
  /** Asks for a run now (the schedule asks every minute); any process's worker may take it. */
  runNow(): Promise<void>;
  stop(graceMs: number): Promise<void>;
}

export async function startLeadDistributionJob(database: Database, logger: Logger, options: { pollingIntervalSeconds?: number } = {}): Promise<LeadDistributionJob> {
  const jobs = createJobQueue(database, logger, { schedule: true });
  await jobs.start();
  await jobs.boss.createQueue(LEAD_DISTRIBUTION_QUEUE);
  await jobs.boss.schedule(LEAD_DISTRIBUTION_QUEUE, EVERY_MINUTE, null, { retryLimit: 0 });
  await jobs.boss.work(LEAD_DISTRIBUTION_QUEUE, { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 15 }, async () => {
    const given = await handOutWaitingLeads(database.db);
    if (given > 0) logger.info({ given }, "waiting leads handed out");
  });
  return {
    runNow: async () => {
      await jobs.boss.send(LEAD_DISTRIBUTION_QUEUE, null, { retryLimit: 0 });
    },
    stop: (graceMs) => jobs.stop(graceMs),
  };
}
