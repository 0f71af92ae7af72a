import { z } from "zod";

// What the installation-wide routes answer: health and platform administration (src/server/app.ts,
// src/server/platform/routes.ts; decision 053).

/** 200 {status: "ok"} while the database answers, 503 {status: "unavailable"} otherwise. */
export const healthSchema = z.strictObject({ status: z.enum(["ok", "unavailable"]) });

const total = z.number().int().nonnegative();

/** Part 2 §3 Platform overview: whole-installation totals; e-mails count only those sent. */
export const platformOverviewSchema = z.strictObject({
  totalDealerships: total,
  totalUsers: total,
  totalLeads: total,
  totalAppointments: total,
  totalTestDrives: total,
  totalEmailsSent: total,
});
export type PlatformOverview = z.infer<typeof platformOverviewSchema>;

export const responses = {
  "GET /api/health": healthSchema,
  "GET /api/platform/overview": platformOverviewSchema,
} as const satisfies Record<string, z.ZodType>;
