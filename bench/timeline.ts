import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { rowsOf, type Database } from "../src/server/db/client";
import { onFreshPglite, onFreshPostgres } from "./fresh-database";
import { activityPageQuery } from "../src/server/leads/activity";

// A lead's timeline (issue 26 "Bench": a lead with 10,000 activity entries; the first page and a deep page each take
// ≤ 5 ms of database time). One dealership of 200 leads with 1,000 entries each, and the lead measured with 10,000,
// written by 20 people.
// Database time is EXPLAIN ANALYZE's execution time of the page's statement as the app writes it (activityPageQuery,
// limit 30), median of the runs. Results are written to bench/TIMELINE.md.
//
//   node --import tsx bench/timeline.ts [pglite|postgres]     (default: both)
//   BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres; the data goes into database showroom_bench_timeline)

const OUT = fileURLToPath(new URL("TIMELINE.md", import.meta.url));
const RUNS = Number(process.env.BENCH_TIMELINE_RUNS ?? 40);
const WARMUP = 5;
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PG_DATABASE = "showroom_bench_timeline";
const DEALER = "bench_timeline_dealer";
const LEAD = "bench_timeline_lead_0";
const ENTRIES = 10_000;
const BUDGET_MS = 5;
const TYPES = ["note.added", "call.logged", "lead.updated", "lead.status_changed", "appointment.scheduled", "test_drive.out"];

async function generate(database: Database): Promise<void> {
  const db = database.db;
  await db.execute(sql`insert into dealerships (id, name) values (${DEALER}, 'Timeline Motors')`);
  await db.execute(sql`insert into users (id, email, password, first_name, last_name)
    select 'bench_timeline_user_' || g, 'user' || g || '@timeline.bench.example', 'x', 'Rep', 'Number ' || g from generate_series(0, 19) g`);
  await db.execute(sql`insert into leads (id, dealership_id, first_name, last_name)
    select 'bench_timeline_lead_' || g, ${DEALER}, 'Client', 'Number ' || g from generate_series(0, 200) g`);
  const types = sql.raw(`array[${TYPES.map((t) => `'${t}'`).join(",")}]`);
  const entries = (lead: SQL, count: number) =>
    db.execute(sql`insert into lead_activity (lead_id, dealership_id, type, event_id, event_type, actor_id, at, payload)
      select ${lead}, ${DEALER}, (${types})[1 + g % ${TYPES.length}], g, 'note.added', 'bench_timeline_user_' || (g % 20), now() - (g * interval '17 minutes'),
        jsonb_build_object('note', jsonb_build_object('id', 'n' || g, 'body', repeat('A note about the trade-in. ', 3), 'authorId', null, 'mentions', '[]'::jsonb))
      from generate_series(1, ${count}) g`);
  await entries(sql`${LEAD}`, ENTRIES);
  await db.execute(sql`insert into lead_activity (lead_id, dealership_id, type, actor_id, at, payload)
    select 'bench_timeline_lead_' || (1 + g % 200), ${DEALER}, 'note.added', 'bench_timeline_user_' || (g % 20), now() - (g * interval '3 minutes'), '{}'::jsonb
    from generate_series(1, 200000) g`);
  await db.execute(sql`analyze`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function explain(database: Database, label: string, query: SQLWrapper) {
  const times: number[] = [];
  let plan = "";
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const result = await database.db.execute(sql`explain (analyze, buffers, costs off, summary on) ${query}`);
    const lines = rowsOf<Record<string, string>>(result).map((r) => Object.values(r)[0] as string);
    if (i >= WARMUP) times.push(Number(/Execution Time: ([\d.]+) ms/.exec(lines.join("\n"))?.[1]));
    plan = lines.join("\n");
  }
  return { label, dbMedian: median(times), dbMax: Math.max(...times), plan };
}

async function measure(database: Database, target: string): Promise<string> {
  // The deep page: the cursor of the 9,000th entry, as the Link header of the page before it would carry it.
  const [deep] = rowsOf<{ at: Date | string; id: number | string }>(
    await database.db.execute(sql`select at, id from lead_activity where lead_id = ${LEAD} order by at desc, id desc offset 8999 limit 1`),
  );
  const cursor = { at: new Date(deep!.at), id: Number(deep!.id) };
  const measured = [
    await explain(database, "First page (30 entries, all types)", activityPageQuery(database.db, LEAD, { limit: 30, filter: "all" })),
    await explain(database, "Deep page (after entry 9,000)", activityPageQuery(database.db, LEAD, { limit: 30, filter: "all", cursor })),
    await explain(database, "First page of notes only", activityPageQuery(database.db, LEAD, { limit: 30, filter: "notes" })),
  ];
  for (const m of measured) console.log(`${target}: ${m.label}: database ${m.dbMedian.toFixed(2)} ms median, ${m.dbMax.toFixed(2)} ms max`);
  const rows = measured.map((m) => `| ${m.label} | ${m.dbMedian.toFixed(2)} | ${m.dbMax.toFixed(2)} | ${m.dbMedian <= BUDGET_MS ? "yes" : "NO"} |`).join("\n");
  return `### ${target}

| Statement | Database ms (median) | Max | Within ${BUDGET_MS} ms |
|---|---|---|---|
${rows}

<details><summary>Query plans</summary>

${measured.map((m) => `${m.label}:\n\n\`\`\`\n${m.plan}\n\`\`\``).join("\n\n")}

</details>
`;
}

const onPglite = () => onFreshPglite(generate, measure);
const onPostgres = () => onFreshPostgres(PG_URL, PG_DATABASE, generate, measure);

const which = process.argv[2];
const sections: string[] = [];
if (!which || which === "pglite") sections.push(await onPglite());
if (!which || which === "postgres") sections.push(await onPostgres());
writeFileSync(
  OUT,
  `# A lead's timeline (issue 26)

A lead with ${ENTRIES.toLocaleString("en-US")} activity entries among 200 others of 1,000 each, by 20 people; the page's one statement
(\`activityPageQuery\`, 30 entries) by EXPLAIN ANALYZE, median of ${RUNS} runs after ${WARMUP} warm-up runs. Budget:
${BUDGET_MS} ms of database time each. \`node --import tsx bench/timeline.ts [pglite|postgres]\` writes this file.

${sections.join("\n")}`,
);
