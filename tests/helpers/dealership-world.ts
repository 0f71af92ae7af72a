import { makeDealership, makeUser, type MadeUser } from "../../src/server/db/factories";
import { signIn, type Agent, type TestApp } from "./test-app";

// The small world most area tests start from: our dealership with two sales reps, front desk and a manager, each signed
// in, and a manager of another dealership (the outsider) to prove tenancy.

export type WorldMember = "sales" | "sales2" | "frontDesk" | "management" | "outsider";

export interface DealershipWorld {
  ours: string;
  theirs: string;
  people: Record<WorldMember, MadeUser>;
  as: Record<WorldMember, Agent>;
}

export async function makeDealershipWorld(t: TestApp, options: { name?: string; timezone?: string } = {}): Promise<DealershipWorld> {
  const ours = (await makeDealership(t.db, { name: options.name ?? "Northside Motors", timezone: options.timezone })).id;
  const theirs = (await makeDealership(t.db, { name: "Elsewhere", timezone: options.timezone })).id;
  const member = (role: "sales" | "frontDesk" | "management") => [{ dealershipId: ours, role }];
  const people: Record<WorldMember, MadeUser> = {
    sales: await makeUser(t.db, { firstName: "Sam", lastName: "Sales", memberships: member("sales") }),
    sales2: await makeUser(t.db, { firstName: "Riley", lastName: "Chen", memberships: member("sales") }),
    frontDesk: await makeUser(t.db, { firstName: "Fran", lastName: "Desk", memberships: member("frontDesk") }),
    management: await makeUser(t.db, { firstName: "Morgan", lastName: "Manager", memberships: member("management") }),
    outsider: await makeUser(t.db, { firstName: "Oscar", lastName: "Out", memberships: [{ dealershipId: theirs, role: "management" }] }),
  };
  const as = {} as Record<WorldMember, Agent>;
  for (const who of Object.keys(people) as WorldMember[]) as[who] = await signIn(t.app, people[who]);
  return { ours, theirs, people, as };
}
