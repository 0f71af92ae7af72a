import { BENCH, CLAIMER, dealershipId, STORY_LEAD, userEmail } from "./generate";

// The benchmarked requests: what each screen asks for, and who asks. The 1,000,000-lead data's dealership 1 holds
// 100,900 leads; its rep 1 is a sales associate and user 5 its manager (bench/generate.ts).

export type Person = "rep" | "manager" | "claimer";

export interface Scenario {
  key: string;
  name: string;
  method: "GET" | "POST";
  /** For a claim, the path of the first lead; each request claims the next lead of the pool. */
  path: string;
  who: Person;
  claim?: boolean;
  /** A page the floor does not serve (issue 32 "New pages"): timed on the app alone, in the same rounds as the lists. */
  alone?: boolean;
}

const big = dealershipId(1);

export const BIG_DEALERSHIP = big;

export const PEOPLE: Record<Person, { email: string; password: string }> = {
  rep: { email: userEmail(1, 1), password: BENCH.password },
  manager: { email: userEmail(1, 5), password: BENCH.password },
  claimer: { email: CLAIMER.email, password: BENCH.password },
};

export const SCENARIOS: Scenario[] = [
  { key: "new", name: "New Leads (sales)", method: "GET", path: `/api/dealerships/${big}/leads?type=new`, who: "rep" },
  { key: "my", name: "My Clients (sales)", method: "GET", path: `/api/dealerships/${big}/leads?type=my`, who: "rep" },
  { key: "all", name: "All Clients (management)", method: "GET", path: `/api/dealerships/${big}/leads`, who: "manager" },
  {
    key: "search",
    name: "All Clients, search garc + status contacted (management)",
    method: "GET",
    path: `/api/dealerships/${big}/leads?type=my&q=garc&status=contacted`,
    who: "manager",
  },
  { key: "claim", name: "Claim a new lead", method: "POST", path: "/api/leads/:id/claim", who: "claimer", claim: true },
];

/** Where the deep page's path puts the cursor of the story lead's 9,000th entry, found in the data before the run. */
export const DEEP_CURSOR = ":cursor-after-9000";

/**
 * The pages added since the lists (issue 32): what a rep's phone asks for on the lead's timeline, My Day (today's
 * agenda, then the upcoming tasks) and the tasks list of the whole floor for the manager. Rep 1 has 10,000 tasks and
 * 2,000 appointments; the story lead has 10,000 entries (bench/generate.ts ensureNewPagesData).
 */
export const NEW_PAGES: Scenario[] = [
  { key: "activity", name: "Lead activity, first page (sales)", method: "GET", path: `/api/leads/${STORY_LEAD}/activity`, who: "rep", alone: true },
  {
    key: "activity-deep",
    name: "Lead activity, the page after entry 9,000 (sales)",
    method: "GET",
    path: `/api/leads/${STORY_LEAD}/activity?cursor=${DEEP_CURSOR}&limit=30&filter=all`,
    who: "rep",
    alone: true,
  },
  { key: "my-day", name: "My Day: today's agenda (sales)", method: "GET", path: `/api/dealerships/${big}/agenda`, who: "rep", alone: true },
  { key: "tasks", name: "My Day: upcoming tasks (sales)", method: "GET", path: `/api/dealerships/${big}/tasks?due=upcoming`, who: "rep", alone: true },
  { key: "tasks-all", name: "Everyone's open tasks (management)", method: "GET", path: `/api/dealerships/${big}/tasks?scope=all`, who: "manager", alone: true },
];

/** A lead of dealership 1 that a rep of the generated data holds: claiming it is a 409. */
export const TAKEN_LEAD = "bench_lead_0000000003";

/** The demo data (`npm start` on an empty database): who signs in and what they open. */
export const DEMO_PEOPLE: Record<"rep" | "manager", { email: string; password: string }> = {
  rep: { email: "sales@demo.showroom", password: "showroom123" },
  manager: { email: "manager@demo.showroom", password: "showroom123" },
};

export function demoScenarios(dealership: string): Array<Omit<Scenario, "who"> & { who: "rep" | "manager" }> {
  return [
    { key: "new", name: "New Leads (sales)", method: "GET", path: `/api/dealerships/${dealership}/leads?type=new`, who: "rep" },
    { key: "my", name: "My Clients (sales)", method: "GET", path: `/api/dealerships/${dealership}/leads?type=my`, who: "rep" },
    { key: "all", name: "All Clients (management)", method: "GET", path: `/api/dealerships/${dealership}/leads`, who: "manager" },
  ];
}
