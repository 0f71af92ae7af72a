import { count, eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { requireUser, type SessionUser } from "../auth/current-user";
import type { Db } from "../db/client";
import { appointments } from "../db/schema/appointments";
import { dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { emailsLog } from "../db/schema/notifications";
import { testDrives } from "../db/schema/test-drives";
import { users } from "../db/schema/users";
import { forbidden } from "../http/errors";
import { isPlatformAdmin } from "./admins";

// Platform administration (part 2 §2, §7). Platform admins only: 401 signed out, 403 for everyone else.

export async function requirePlatformAdmin(request: FastifyRequest): Promise<SessionUser> {
  const user = await requireUser(request);
  if (!(await isPlatformAdmin(request.server.db, user.id))) throw forbidden("Platform admin access required");
  return user;
}

export interface PlatformOverview {
  totalDealerships: number;
  totalUsers: number;
  totalLeads: number;
  totalAppointments: number;
  totalTestDrives: number;
  totalEmailsSent: number;
}

/** Whole-platform totals; e-mails count only those actually sent (not failed or bounced). */
export async function platformOverview(db: Db): Promise<PlatformOverview> {
  const total = async (query: Promise<Array<{ n: number }>>) => Number((await query)[0]?.n ?? 0);
  const [totalDealerships, totalUsers, totalLeads, totalAppointments, totalTestDrives, totalEmailsSent] = await Promise.all([
    total(db.select({ n: count() }).from(dealerships)),
    total(db.select({ n: count() }).from(users)),
    total(db.select({ n: count() }).from(leads)),
    total(db.select({ n: count() }).from(appointments)),
    total(db.select({ n: count() }).from(testDrives)),
    total(db.select({ n: count() }).from(emailsLog).where(eq(emailsLog.status, "sent"))),
  ]);
  return { totalDealerships, totalUsers, totalLeads, totalAppointments, totalTestDrives, totalEmailsSent };
}

export async function platformRoutes(app: FastifyInstance): Promise<void> {
  app.get("/api/platform/overview", async (request) => {
    await requirePlatformAdmin(request);
    return platformOverview(app.db);
  });
}
