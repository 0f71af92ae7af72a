import { and, asc, eq, ne } from "drizzle-orm";
import type { AppointmentStatus } from "../../shared/constants";
import { addDays, localMoment } from "../../shared/dealership-clock";
import type { Db } from "../db/client";
import { makeAppointment } from "../db/factories-appointments";
import type { DemoWorld } from "../db/seed-demo";
import { dealershipUsers, dealerships } from "../db/schema/dealerships";
import { leads } from "../db/schema/leads";
import { appointmentStart } from "./ical";

// Demo appointments around today, on each dealership's clock: a busy today (some done, one in progress, some
// still to come, one cancelled), the last few days (completed and no-shows) and the next two weeks, so the
// calendar, the day summary and the dashboard's upcoming panel all have something to show.

interface Plan {
  day: number;
  time: string;
  who: string;
  title: string;
  customer: [string, string];
  phone?: string;
  email?: boolean;
  description?: string;
  /** For days before today or slots already past: what happened. */
  outcome?: "completed" | "no-show" | "cancelled" | "arrived";
  /** Minutes the visit took when completed. */
  minutes?: number;
  duration?: number;
}

const NORTHSIDE: Plan[] = [
  { day: -6, time: "10:00", who: "sales", title: "Trade-in appraisal", customer: ["Priya", "Natarajan"], phone: "4165550131", email: true, outcome: "completed", minutes: 48 },
  { day: -5, time: "14:30", who: "sales2", title: "Test drive", customer: ["Marcus", "Bell"], phone: "6475550172", outcome: "no-show" },
  { day: -3, time: "11:00", who: "sales", title: "Financing review", customer: ["Elena", "Kowalski"], phone: "4165550118", email: true, outcome: "completed", minutes: 72 },
  { day: -2, time: "16:00", who: "frontDesk", title: "Service walk-around", customer: ["Tom", "Okafor"], phone: "9055550190", outcome: "cancelled" },
  { day: -1, time: "09:30", who: "sales2", title: "Vehicle delivery", customer: ["Grace", "Liu"], phone: "4165550155", email: true, outcome: "completed", minutes: 95, duration: 90 },
  { day: -1, time: "15:00", who: "sales", title: "Test drive", customer: ["Daniel", "Moreau"], phone: "6475550109", outcome: "completed", minutes: 41 },
  { day: 0, time: "09:00", who: "sales", title: "Test drive", customer: ["Aisha", "Rahman"], phone: "4165550146", email: true, description: "Interested in the RAV4 Hybrid XLE. Bring trade-in details.", outcome: "completed", minutes: 52 },
  { day: 0, time: "10:30", who: "sales2", title: "Trade-in appraisal", customer: ["Kevin", "Doyle"], phone: "9055550127", outcome: "arrived" },
  { day: 0, time: "11:00", who: "sales", title: "Financing review", customer: ["Sofia", "Martins"], phone: "4165550183", email: true, outcome: "cancelled" },
  { day: 0, time: "13:00", who: "sales", title: "Vehicle delivery", customer: ["Noah", "Fitzgerald"], phone: "6475550164", email: true, description: "Detailing done; plates on file.", duration: 90 },
  { day: 0, time: "14:30", who: "frontDesk", title: "Walk-in follow-up", customer: ["Hannah", "Schultz"], phone: "4165550112" },
  { day: 0, time: "16:00", who: "management", title: "Fleet pricing meeting", customer: ["Omar", "Haddad"], phone: "4165550199", email: true, description: "Five-vehicle fleet quote for a landscaping business." },
  { day: 1, time: "09:30", who: "sales", title: "Test drive", customer: ["Lucas", "Ferreira"], phone: "6475550138", email: true },
  { day: 1, time: "12:00", who: "sales2", title: "Financing review", customer: ["Chloe", "Nguyen"], phone: "4165550177" },
  { day: 2, time: "10:00", who: "sales", title: "Trade-in appraisal", customer: ["Ethan", "Brooks"], phone: "9055550151", description: "2017 Civic, 140,000 km." },
  { day: 2, time: "15:30", who: "frontDesk", title: "Test drive", customer: ["Maya", "Patel"], phone: "4165550105", email: true },
  { day: 4, time: "11:30", who: "sales", title: "Vehicle delivery", customer: ["Ryan", "O'Connor"], phone: "6475550122", email: true, duration: 90 },
  { day: 7, time: "13:30", who: "sales2", title: "Test drive", customer: ["Isabella", "Rossi"], phone: "4165550160" },
  { day: 9, time: "10:00", who: "management", title: "Lease return inspection", customer: ["William", "Tremblay"], phone: "9055550184" },
  { day: 12, time: "17:00", who: "sales", title: "Follow-up visit", customer: ["Zoe", "Anderson"], phone: "4165550193", email: true },
];

const LAKESHORE: Plan[] = [
  { day: -2, time: "10:00", who: "lakeshoreManager", title: "Test drive", customer: ["Ben", "Carter"], phone: "4165550211", outcome: "completed", minutes: 35 },
  { day: 0, time: "11:30", who: "multi", title: "Trade-in appraisal", customer: ["Nadia", "Petrov"], phone: "6475550234", email: true },
  { day: 0, time: "15:00", who: "lakeshoreManager", title: "Financing review", customer: ["Victor", "Huang"], phone: "4165550248" },
  { day: 3, time: "09:00", who: "multi", title: "Test drive", customer: ["Leah", "Goldberg"], phone: "9055550257", email: true },
  { day: 6, time: "14:00", who: "lakeshoreManager", title: "Vehicle delivery", customer: ["Samuel", "Osei"], phone: "4165550263", duration: 90 },
];

function phoneOf(digits: string | undefined): string | null {
  return digits ? `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}` : null;
}

async function seedPlan(db: Db, dealershipId: string, people: Record<string, string>, plan: Plan[], now: Date): Promise<void> {
  const [dealership] = await db.select({ timezone: dealerships.timezone }).from(dealerships).where(eq(dealerships.id, dealershipId));
  const timezone = dealership!.timezone;
  const here = localMoment(timezone, now);
  // Link to the dealership's demo leads by name when the leads area seeded them first.
  const leadRows = await db
    .select({ id: leads.id, firstName: leads.firstName, lastName: leads.lastName })
    .from(leads)
    .where(eq(leads.dealershipId, dealershipId))
    .orderBy(asc(leads.createdAt));
  const leadByName = new Map(leadRows.map((l) => [`${l.firstName} ${l.lastName}`, l.id]));

  for (const p of plan) {
    const userId = people[p.who];
    if (!userId) continue;
    const date = addDays(here.date, p.day);
    const start = appointmentStart(date, p.time, timezone);
    const started = start.getTime() <= now.getTime();
    // An outcome only once the slot has begun; a later slot today stays scheduled (cancellations can be any time).
    const status: AppointmentStatus = p.outcome && (started || p.outcome === "cancelled") ? p.outcome : "scheduled";
    const arrivedAt = status === "arrived" || status === "completed" ? new Date(start.getTime() - 5 * 60_000) : null;
    let completedAt: Date | null = null;
    if (status === "completed" && arrivedAt) {
      completedAt = new Date(Math.min(arrivedAt.getTime() + (p.minutes ?? 45) * 60_000, now.getTime()));
    }
    const [firstName, lastName] = p.customer;
    await makeAppointment(db, {
      dealershipId,
      userId,
      date,
      time: p.time,
      title: p.title,
      firstName,
      lastName,
      phone: phoneOf(p.phone),
      email: p.email ? `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, "") + "@example.com" : null,
      description: p.description ?? null,
      duration: p.duration ?? 60,
      status,
      arrivedAt,
      completedAt,
      actualDuration: completedAt && arrivedAt ? Math.round((completedAt.getTime() - arrivedAt.getTime()) / 60_000) : null,
      leadId: leadByName.get(`${firstName} ${lastName}`) ?? null,
      createdAt: new Date(Math.min(start.getTime(), now.getTime()) - 3 * 86_400_000),
    });
  }
}

/** Lakeshore's own manager (not in DemoWorld): its management member other than the two-dealership user. */
async function lakeshoreManagerId(db: Db, dealershipId: string, exceptUserId: string): Promise<string | undefined> {
  const rows = await db
    .select({ userId: dealershipUsers.userId })
    .from(dealershipUsers)
    .where(and(eq(dealershipUsers.dealershipId, dealershipId), eq(dealershipUsers.role, "management"), ne(dealershipUsers.userId, exceptUserId)))
    .limit(1);
  return rows[0]?.userId;
}

export async function seedDemoAppointments(world: DemoWorld, now: Date = new Date()): Promise<void> {
  const { db, users } = world;
  const northsidePeople = { sales: users.sales.id, sales2: users.sales2.id, frontDesk: users.frontDesk.id, management: users.management.id };
  await seedPlan(db, world.dealerships.northside.id, northsidePeople, NORTHSIDE, now);
  const lakeshorePeople: Record<string, string> = { multi: users.multi.id };
  const manager = await lakeshoreManagerId(db, world.dealerships.lakeshore.id, users.multi.id);
  if (manager) lakeshorePeople.lakeshoreManager = manager;
  await seedPlan(db, world.dealerships.lakeshore.id, lakeshorePeople, LAKESHORE, now);
}
