import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, folderOf, graphOf, importsUnder, SERVER, serverFolderGraph, SRC } from "../helpers/import-graph";

// The server's boundaries (issue 25, docs/ARCHITECTURE.md "Import directions"), read from the source. eslint.config.js
// says the same where one file's imports suffice (the infrastructure zone, route files); the graph-wide rules live
// here. `node --import tsx tests/helpers/import-graph.ts` prints the folder graph and its cycles.

/** Infrastructure: it serves every area and imports none. */
const INFRASTRUCTURE = ["db", "http", "events", "jobs", "mail"];
/** Neither infrastructure nor an area: the access rules, the demo data, and the modules at src/server's root
 * (configuration, the composition root: app.ts, areas.ts, main.ts, ...), which folderOf names by their file. */
const NOT_AREAS = new Set([...INFRASTRUCTURE, "access", "db:demo-data"]);
const isArea = (folder: string) => !NOT_AREAS.has(folder) && existsSync(path.join(SERVER, folder)) && statSync(path.join(SERVER, folder)).isDirectory();
const relative = (file: string) => path.relative(SRC, file);

describe("import boundaries of src/server", () => {
  const imports = importsUnder(SERVER).filter((i) => !path.relative(SERVER, i.to).startsWith(".."));

  it("no module cycle through value imports anywhere in src (import/no-cycle)", () => {
    const values = importsUnder(SRC).filter((i) => !i.typeOnly);
    expect(cycles(graphOf(values, relative))).toEqual([]);
  });

  it("infrastructure (db, http, events, jobs, mail) imports no area, not even a type", () => {
    const crossings = imports
      .filter((i) => INFRASTRUCTURE.includes(folderOf(i.from)) && isArea(folderOf(i.to)))
      .map((i) => `${relative(i.from)} -> ${relative(i.to)}`);
    expect(crossings).toEqual([]);
  });

  it("no module imports another folder's route file (areas.ts registers them)", () => {
    const routeFile = (file: string) => /(^|[-/])routes\.ts$/.test(path.basename(file)) || path.basename(file) === "routes.ts";
    const crossings = imports
      .filter((i) => routeFile(i.to) && folderOf(i.from) !== folderOf(i.to) && !["areas", "app"].includes(folderOf(i.from)))
      .map((i) => `${relative(i.from)} -> ${relative(i.to)}`);
    expect(crossings).toEqual([]);
  });

  it("the folder graph is not one strongly connected component: infrastructure and access sit in no cycle with areas", () => {
    const graph = serverFolderGraph();
    const components = cycles(graph);
    for (const component of components) {
      const areas = component.filter(isArea);
      if (areas.length) expect(component.filter((f) => INFRASTRUCTURE.includes(f) || f === "access"), component.join(" ")).toEqual([]);
    }
    // 12 of 36 folders and root modules on 2026-11-28 (all 21 before issue 25; customer-mail joined as it came, intake
    // left when its settings moved to src/server/intake-config.ts): may shrink, not grow.
    expect(Math.max(0, ...components.map((c) => c.length))).toBeLessThanOrEqual(12);
  });
});
