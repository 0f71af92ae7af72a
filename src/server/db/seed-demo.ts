import { inArray } from "drizzle-orm";
import type { DealershipRole } from "../../shared/constants";
import { grantPlatformAdminByEmail } from "../platform/admins";
import type { Db } from "./client";
import { makeDealership, makeUser } from "./factories";
import { dealerships } from "./schema/dealerships";
import { seedDemoTeam } from "../team/demo";
import { seedDemoAppointments } from "../appointments/demo";
import { seedDemoLeads } from "../leads/demo";
import { seedDemoTestDrives } from "../test-drives/demo";
import { seedDemoNotifications } from "../notifications/in-app-demo";

export const DEMO_PASSWORD = "showroom123";

interface DemoLogin {
  email: string;
  role: string;
}

/** What the areas' demo steps build on: the demo dealerships and people. */
export interface DemoWorld {
  db: Db;
  dealerships: { northside: { id: string }; lakeshore: { id: string } };
  users: Record<"sales" | "frontDesk" | "management" | "multi" | "sales2" | "platformAdmin", { id: string }>;
}

/** Creates the demo: two dealerships, a user for each role, one user in both, a platform admin. */
export async function seedDemo(db: Db): Promise<DemoLogin[]> {
  const northside = await makeDealership(db, {
    name: "Northside Motors",
    address: "1200 Yonge St, Toronto, ON",
    phone: "416-555-0100",
  });
  const lakeshore = await makeDealership(db, {
    name: "Lakeshore Auto Group",
    address: "88 Lake Shore Blvd W, Toronto, ON",
    phone: "416-555-0200",
  });

  const member = (dealershipId: string, role: DealershipRole) => [{ dealershipId, role }];
  const people = {
    sales: await makeUser(db, { email: "sales@demo.showroom", password: DEMO_PASSWORD, firstName: "Sam", lastName: "Sales", memberships: member(northside.id, "sales") }),
    sales2: await makeUser(db, { email: "riley@demo.showroom", password: DEMO_PASSWORD, firstName: "Riley", lastName: "Chen", memberships: member(northside.id, "sales") }),
    frontDesk: await makeUser(db, { email: "frontdesk@demo.showroom", password: DEMO_PASSWORD, firstName: "Fran", lastName: "Desk", memberships: member(northside.id, "frontDesk") }),
    management: await makeUser(db, { email: "manager@demo.showroom", password: DEMO_PASSWORD, firstName: "Morgan", lastName: "Manager", memberships: member(northside.id, "management") }),
    multi: await makeUser(db, {
      email: "multi@demo.showroom",
      password: DEMO_PASSWORD,
      firstName: "Alex",
      lastName: "Both",
      memberships: [
        { dealershipId: northside.id, role: "management" },
        { dealershipId: lakeshore.id, role: "sales" },
      ],
    }),
    platformAdmin: await makeUser(db, { email: "admin@demo.showroom", password: DEMO_PASSWORD, firstName: "Pat", lastName: "Platform" }),
  };
  await grantPlatformAdminByEmail(db, people.platformAdmin.email);
  await makeUser(db, { email: "lakeshore.manager@demo.showroom", password: DEMO_PASSWORD, firstName: "Lee", lastName: "Shore", memberships: member(lakeshore.id, "management") });

  const world: DemoWorld = { db, dealerships: { northside, lakeshore }, users: people };
  // Each area adds its own demo data here, e.g. `await seedDemoLeads(world);`.
  await seedDemoTeam(world);
  await seedDemoLeads(world);
  await seedDemoAppointments(world); // after the leads seed, so demo appointments can link to demo leads
  await seedDemoTestDrives(world);
  await seedDemoNotifications(world); // last: the bell replays the recent leads
  // The demo dealerships are long set up: no first-run checklist (decision 192; register a new dealership to see it).
  await db.update(dealerships).set({ firstRunDismissedAt: new Date() }).where(inArray(dealerships.id, [northside.id, lakeshore.id]));

  const logins: DemoLogin[] = [
    { email: people.sales.email, role: "sales (Northside Motors)" },
    { email: people.frontDesk.email, role: "frontDesk (Northside Motors)" },
    { email: people.management.email, role: "management (Northside Motors)" },
    { email: people.multi.email, role: "management at Northside, sales at Lakeshore" },
    { email: "lakeshore.manager@demo.showroom", role: "management (Lakeshore Auto Group)" },
    { email: people.platformAdmin.email, role: "platform admin" },
  ];
  return logins;
}
