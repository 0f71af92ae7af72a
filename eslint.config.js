import { readdirSync } from "node:fs";
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";
import { tenantTablesRule } from "./eslint/tenant-tables.js";

// Import directions (ARCHITECTURE.md): client -> shared, server -> shared, never client <-> server;
// shared imports neither and stays free of Node and DOM.
const restrict = (patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

// Inside the server (issue 25; the graph-wide rules, no cycles and no area cycle through infrastructure, are
// tests/api/boundaries.test.ts): infrastructure imports no area, and no module imports another folder's route file
// (areas.ts registers them; what other areas need of an area is in its commands, queries or access, not its routes).
const INFRASTRUCTURE = ["db", "http", "events", "jobs", "mail"];
const AREAS = readdirSync("src/server", { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !INFRASTRUCTURE.includes(entry.name) && entry.name !== "access")
  .map((entry) => entry.name);
const serverSide = { group: ["**/client/**"], message: "The server imports only server and shared modules." };
const otherRoutes = { group: ["../*/routes", "../*/*-routes"], message: "Route files are registered by areas.ts; import the area's commands, queries or access instead." };
// Routes never call the mailer (issue 25): the mail a route's answer causes is queued by its area (a command, or a
// function such as auth/password-reset.ts or leads/send-reminder.ts) that the route calls with the app.
const ROUTE_FILES = ["src/server/**/routes.ts", "src/server/**/*-routes.ts"];
const noMailer = {
  "no-restricted-syntax": [
    "error",
    ...["MemberExpression[property.name='mailer']", "MemberExpression[property.value='mailer']", "ObjectPattern > Property[key.name='mailer']"].map((selector) => ({
      selector,
      message: "Routes never call the mailer: call the area's command or mail function, which queues the mail in its transaction.",
    })),
  ],
};
const noArea = {
  group: AREAS.flatMap((area) => [`../${area}/*`, `../../${area}/*`]),
  message: "Infrastructure (db, http, events, jobs, mail) imports no area.",
};

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "drizzle/**", "coverage/**", "data/**", "bench/.data/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["src/client/**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...restrict([{ group: ["**/server/**", "node:*"], message: "The client imports only client and shared modules." }]),
    },
  },
  {
    files: ["src/server/**/*.ts"],
    rules: restrict([serverSide, otherRoutes]),
  },
  { files: ["src/server/areas.ts", "src/server/app.ts"], rules: restrict([serverSide]) },
  { files: ROUTE_FILES, rules: noMailer },
  {
    files: INFRASTRUCTURE.map((folder) => `src/server/${folder}/**/*.ts`),
    // The demo data and the tests' factories build rows through the areas: the areas' client, not infrastructure.
    ignores: ["src/server/db/factories*.ts", "src/server/db/seed-demo.ts", "**/*.test.ts"],
    rules: restrict([serverSide, otherRoutes, noArea]),
  },
  {
    // Tenant tables: only the owning area, access/, db/ and the tests import one (eslint/tenant-tables.js, decision 248).
    files: ["src/server/**/*.ts"],
    plugins: { showroom: { rules: { "tenant-tables": tenantTablesRule } } },
    rules: { "showroom/tenant-tables": "error" },
  },
  {
    files: ["src/shared/**/*.ts"],
    rules: restrict([
      { group: ["**/client/**", "**/server/**"], message: "shared/ imports neither side." },
      { group: ["node:*"], message: "shared/ runs in the browser too: no Node imports." },
    ]),
  },
);
