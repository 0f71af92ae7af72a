import path from "node:path";

// Tenant tables (issue 25, decision 248): a table with a dealership_id belongs to one area, and only that area,
// `access/` (the visibility rules, in SQL), `db/` (schema, migrations, the demo data and the tests' factories) and the
// tests import it. Another area asks the owner's queries or commands. The map is explicit: a new table with a
// dealership_id and no owner here fails lint in its schema file.

/** Schema file (src/server/db/schema/<file>.ts) -> table -> the folder of src/server that owns it. */
export const TENANT_TABLE_OWNERS = {
  activity: { leadActivity: "leads", leadNotes: "leads", leadCalls: "leads" },
  appointments: { appointments: "appointments", calendarFeeds: "appointments" },
  "customer-mail": { leadEmails: "customer-mail", leadReplyAddresses: "customer-mail", emailTemplates: "customer-mail" },
  // dealership_users is the tenancy itself (who has which role where; auth/tenancy.ts's roleSql), as `dealerships`
  // is: every area scopes by it, so it is not an area's table. Invitations are team's.
  dealerships: { dealershipUsers: "*", dealershipInvites: "team" },
  "deleted-leads": { deletedLeads: "leads" },
  distribution: { leadDistribution: "distribution", repAvailability: "distribution" },
  events: { domainEvents: "events" },
  intake: { intakeCredentials: "intake", intakeDocuments: "intake" },
  integrations: { apiTokens: "integrations", webhooks: "integrations" },
  "lead-duplicates": { leadDuplicates: "leads", leadMerges: "leads" },
  leads: { leads: "leads", lostReasonLists: "leads" },
  notifications: {
    notifications: "notifications",
    emailNotificationTriggers: "notifications",
    emailNotificationSubscriptions: "notifications",
    pushNotifications: "push",
    emailsLog: "mail",
  },
  platform: { platformAdminDealershipAccess: "platform", platformAuditLog: "platform" },
  tasks: { tasks: "tasks", followUpSettings: "tasks" },
  "test-drives": { vehicles: "vehicles", testDriveUnits: "vehicles", testDrives: "test-drives" },
  "vehicles-of-interest": { vehiclesOfInterest: "intake" },
};

/**
 * Files outside the owner that import its tables, each with its reason. "Not yet" marks a read or write that is to
 * move behind the owner's queries or commands (docs/ARCHITECTURE.md, Not yet); keep this list short.
 */
export const TENANT_TABLE_EXCEPTIONS = [
  { files: "src/server/*/demo.ts", reason: "the demo data writes the tables straight, as db/factories*.ts do" },
  { files: "src/server/*/*-demo.ts", reason: "the demo data writes the tables straight, as db/factories*.ts do" },
  { files: "src/server/auth/tenancy.ts", tables: ["apiTokens", "platformAdminDealershipAccess"], reason: "roleSql is the one definition of a role in a dealership" },
  { files: "src/server/events/timeline-entries.ts", tables: ["leadActivity"], reason: "the timeline's entry commits in its event's statement (decision 218)" },
  { files: "src/server/leads/queries.ts", tables: ["domainEvents"], reason: "the claim writes its event in its one statement (decision 185)" },
  { files: "src/server/leads/deleted-archive.ts", reason: "a deleted lead takes every row that names it to the archive, and back (decision 214)" },
  { files: "src/server/leads/merge.ts", reason: "a merge moves every row that names the merged-away lead, in its transaction" },
  { files: "src/server/analytics/queries.ts", reason: "analytics counts the rows of every area, scoped by access/" },
  { files: "src/server/platform/*.ts", reason: "the platform's operator works across dealerships (counts, a dealership's deletion), with no dealership viewer" },
  { files: "src/server/distribution/hand-out.ts", tables: ["leads"], reason: "the hand-out assigns leads inside leads' own arrival transaction (decision 201)" },
  { files: "src/server/dealerships/first-run.ts", reason: "the first-run checklist asks in one statement whether each area has begun" },
  { files: "src/server/intake/vehicles-of-interest.ts", tables: ["leads", "vehicles"], reason: "an interest links to the inventory by VIN in one statement; vehicles calls it (decision 188)" },
  { files: "src/server/test-drives/queries.ts", tables: ["vehicles", "testDriveUnits"], reason: "a drive shows the vehicle or unit it takes out; vehicles imports test-drives" },
  { files: "src/server/tasks/*.ts", tables: ["leads"], reason: "a task is seen through its lead (access/leads.ts) and shows its name: tasks' statements join it" },
  { files: "src/server/tasks/agenda.ts", tables: ["appointments", "testDrives"], reason: "the agenda is one statement over the day's tasks, appointments and drives, in time order" },
  // Not yet (docs/ARCHITECTURE.md): to move behind the owner's queries or access/.
  { files: "src/server/leads/queries.ts", tables: ["appointments", "testDrives"], reason: "not yet: the dashboard's counts of today read appointments and drives in one statement" },
  { files: "src/server/notifications/*.ts", tables: ["leads", "domainEvents"], reason: "not yet: who is told of a lead is decided in the plan's statement, joined to the lead" },
  { files: "src/server/vehicles/queries.ts", tables: ["vehiclesOfInterest"], reason: "not yet: the lead's vehicle cards join the inventory to the lead's interests" },
];

const SERVER = "src/server/";
const globToRegExp = (glob) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}$`);
const EXCEPTIONS = TENANT_TABLE_EXCEPTIONS.map((e) => ({ ...e, match: globToRegExp(e.files) }));
/** The table's owner (schema/index re-exports every file); undefined: not a tenant table. */
const ownerOf = (file, table) =>
  Object.entries(TENANT_TABLE_OWNERS).find(([f, tables]) => (file === "index" || f === file) && Object.hasOwn(tables, table))?.[1][table];

/** Whether the file may import the table (undefined owner: not a tenant table). */
function allowed(relative, table, owner) {
  if (owner === undefined || owner === "*") return true;
  if (!relative.startsWith(SERVER) || /\.test\.tsx?$/.test(relative)) return true;
  const folder = relative.slice(SERVER.length).split("/")[0];
  if (folder === owner || folder === "access" || folder === "db") return true;
  return EXCEPTIONS.some((e) => e.match.test(relative) && (!e.tables || e.tables.includes(table)));
}

export const tenantTablesRule = {
  meta: { type: "problem", schema: [], docs: { description: "Only the owning area, access/ and db/ import a tenant table" } },
  create(context) {
    const relative = path.relative(context.cwd, context.filename).split(path.sep).join("/");
    const schemaFileOf = (source) => {
      if (!source.startsWith(".")) return undefined;
      const target = path.relative(context.cwd, path.resolve(path.dirname(context.filename), source)).split(path.sep).join("/");
      const match = /^src\/server\/db\/schema\/([a-z-]+?)(\.ts)?$/.exec(target);
      return match?.[1];
    };
    const check = (node, file, names) => {
      for (const { name, at } of names) {
        const owner = name === "*" ? "(every area)" : ownerOf(file, name);
        if (name === "*" ? allowed(relative, "*", "(every area)") : allowed(relative, name, owner)) continue;
        context.report({
          node: at ?? node,
          message:
            name === "*"
              ? `db/schema/${file} as a whole holds other areas' tenant tables: import your own tables by name.`
              : `${name} is a tenant table of ${owner}/: call its queries or commands (or access/), or list an exception with its reason in eslint/tenant-tables.js.`,
        });
      }
    };
    const schemaMatch = /^src\/server\/db\/schema\/([a-z-]+)\.ts$/.exec(relative);
    return {
      ImportDeclaration(node) {
        const file = schemaFileOf(node.source.value);
        if (!file || file === "columns") return;
        check(
          node,
          file,
          node.specifiers.map((s) =>
            s.type === "ImportSpecifier" ? { name: s.imported.name ?? s.imported.value, at: s } : { name: "*", at: s },
          ),
        );
      },
      ExportAllDeclaration(node) {
        const file = schemaFileOf(node.source.value);
        if (file && file !== "columns") check(node, file, [{ name: "*" }]);
      },
      // In a schema file: every pgTable with a dealership_id column has its owner in TENANT_TABLE_OWNERS.
      VariableDeclarator(node) {
        if (!schemaMatch || node.id.type !== "Identifier" || node.init?.type !== "CallExpression") return;
        if (node.init.callee.type !== "Identifier" || node.init.callee.name !== "pgTable") return;
        const columns = node.init.arguments[1];
        if (!columns || !context.sourceCode.getText(columns).includes('"dealership_id"')) return;
        if (ownerOf(schemaMatch[1], node.id.name) === undefined)
          context.report({ node: node.id, message: `${node.id.name} has a dealership_id: name its owning area in eslint/tenant-tables.js (TENANT_TABLE_OWNERS).` });
      },
    };
  },
};
