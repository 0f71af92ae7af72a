import { and, eq, ne } from "drizzle-orm";
import type { LeadStatus } from "../../shared/constants";
import { makeLead } from "../db/factories-leads";
import { dealershipUsers } from "../db/schema/dealerships";
import type { DemoWorld } from "../db/seed-demo";

// Demo leads for both demo dealerships: a pool of new enquiries (some minutes old, some waiting since yesterday),
// clients of each rep in every status, and enough of today and yesterday for the dashboard cards to show a change.
// Several customers are the ones the demo appointments are booked with, so those link to their lead.

interface Plan {
  /** Hours before now the enquiry came in. */
  hoursAgo: number;
  name: [string, string];
  phone?: string;
  email?: boolean;
  description?: string;
  /** Who works it (a DemoWorld user key, or "lakeshoreManager"); none leaves it in the New Leads pool. */
  who?: string;
  status?: LeadStatus;
}

const NORTHSIDE: Plan[] = [
  { hoursAgo: 0.1, name: ["Olivia", "Bennett"], phone: "4165550241", email: true, description: "Asked about the 2025 CR-V Hybrid in white; wants a quote with winter tires." },
  { hoursAgo: 0.6, name: ["Jamal", "Wright"], phone: "6475550288", description: "Called from the website chat: looking for a used pickup under $35,000." },
  { hoursAgo: 1.5, name: ["Mei", "Tanaka"], email: true, description: "Lease ends in March. Interested in an EV with 400 km range." },
  { hoursAgo: 3, name: ["Lucas", "Ferreira"], phone: "6475550138", email: true, who: "sales", status: "contacted", description: "Booked a test drive of the Tucson N Line." },
  { hoursAgo: 4.5, name: ["Hannah", "Schultz"], phone: "4165550112", description: "Walk-in; left before anyone was free. Wants a call back after 5 pm." },
  { hoursAgo: 6, name: ["Aisha", "Rahman"], phone: "4165550146", email: true, who: "sales", status: "qualified", description: "Interested in the RAV4 Hybrid XLE. Pre-approved for financing." },
  { hoursAgo: 20, name: ["Diego", "Alvarez"], phone: "9055550219", email: true, description: "Trade-in: 2016 Mazda3, 120,000 km. Wants an appraisal." },
  { hoursAgo: 23, name: ["Noah", "Fitzgerald"], phone: "6475550164", email: true, who: "sales", status: "inProgress", description: "Deal signed; delivery being prepared." },
  { hoursAgo: 26, name: ["Chloe", "Nguyen"], phone: "4165550177", who: "sales2", status: "claimed" },
  { hoursAgo: 28, name: ["Kevin", "Doyle"], phone: "9055550127", email: true, who: "sales2", status: "contacted", description: "Trade-in appraisal booked." },
  { hoursAgo: 30, name: ["Fatima", "Hussein"], email: true, description: "Fleet enquiry: three vans for a catering business." },
  { hoursAgo: 50, name: ["Ethan", "Brooks"], phone: "9055550151", who: "sales", status: "claimed", description: "2017 Civic, 140,000 km to trade." },
  { hoursAgo: 75, name: ["Daniel", "Moreau"], phone: "6475550109", email: true, who: "sales", status: "closed", description: "Bought a certified pre-owned Camry." },
  { hoursAgo: 98, name: ["Grace", "Liu"], phone: "4165550155", email: true, who: "sales2", status: "closed" },
  { hoursAgo: 120, name: ["Elena", "Kowalski"], phone: "4165550118", email: true, who: "sales", status: "qualified" },
  { hoursAgo: 145, name: ["Marcus", "Bell"], phone: "6475550172", who: "sales2", status: "lost", description: "Went with a competitor's lease offer." },
  { hoursAgo: 160, name: ["Priya", "Natarajan"], phone: "4165550131", email: true, who: "sales", status: "contacted" },
  { hoursAgo: 190, name: ["Omar", "Haddad"], phone: "4165550199", email: true, who: "management", status: "inProgress", description: "Five-vehicle fleet quote." },
];

const LAKESHORE: Plan[] = [
  { hoursAgo: 0.4, name: ["Sara", "Lindqvist"], phone: "4165550274", email: true, description: "Wants to compare the Outback and the Forester." },
  { hoursAgo: 2, name: ["Ahmed", "Karimi"], phone: "6475550281" },
  { hoursAgo: 22, name: ["Nadia", "Petrov"], phone: "6475550234", email: true, who: "multi", status: "contacted", description: "Trade-in appraisal booked." },
  { hoursAgo: 27, name: ["Leah", "Goldberg"], phone: "9055550257", email: true, who: "multi", status: "claimed" },
  { hoursAgo: 70, name: ["Victor", "Huang"], phone: "4165550248", who: "lakeshoreManager", status: "qualified" },
  { hoursAgo: 96, name: ["Ben", "Carter"], phone: "4165550211", email: true, who: "lakeshoreManager", status: "closed" },
];

const phoneOf = (digits?: string) => (digits ? `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}` : null);
const emailOf = (first: string, last: string) => `${first}.${last}`.toLowerCase().replace(/[^a-z.]/g, "") + "@example.com";

async function seedPlan(world: DemoWorld, dealershipId: string, people: Record<string, string>, plan: Plan[], now: Date): Promise<void> {
  for (const p of plan) {
    const [firstName, lastName] = p.name;
    const createdAt = new Date(now.getTime() - p.hoursAgo * 3_600_000);
    const claimedBy = p.who ? (people[p.who] ?? null) : null;
    await makeLead(world.db, {
      dealershipId,
      firstName,
      lastName,
      email: p.email ? emailOf(firstName, lastName) : null,
      phone: phoneOf(p.phone),
      description: p.description ?? null,
      status: claimedBy ? (p.status ?? "claimed") : "new",
      claimedBy,
      claimedAt: claimedBy ? new Date(createdAt.getTime() + 20 * 60_000) : null,
      createdAt,
    });
  }
}

export async function seedDemoLeads(world: DemoWorld, now: Date = new Date()): Promise<void> {
  const { users } = world;
  await seedPlan(
    world,
    world.dealerships.northside.id,
    { sales: users.sales.id, sales2: users.sales2.id, frontDesk: users.frontDesk.id, management: users.management.id },
    NORTHSIDE,
    now,
  );
  const lakeshore: Record<string, string> = { multi: users.multi.id };
  // Lakeshore's own manager is not in DemoWorld: its management member other than the two-dealership user.
  const [manager] = await world.db
    .select({ userId: dealershipUsers.userId })
    .from(dealershipUsers)
    .where(
      and(
        eq(dealershipUsers.dealershipId, world.dealerships.lakeshore.id),
        eq(dealershipUsers.role, "management"),
        ne(dealershipUsers.userId, users.multi.id),
      ),
    )
    .limit(1);
  if (manager) lakeshore.lakeshoreManager = manager.userId;
  await seedPlan(world, world.dealerships.lakeshore.id, lakeshore, LAKESHORE, now);
}
