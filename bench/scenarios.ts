import { BENCH, CLAIMER, dealershipId, userEmail } from "./generate";

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
