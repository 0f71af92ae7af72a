import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The import graph of src/ as the source says it (issue 25's boundaries): each module's relative imports, value or
// type, resolved to files. Read by tests/api/boundaries.test.ts; run it to print src/server's folder graph and its
// strongly connected components:  node --import tsx tests/helpers/import-graph.ts

export const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src");
export const SERVER = path.join(SRC, "server");

export interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

const IMPORT = /^(import|export)\s+(type\s+)?[^'";]*?from\s*["'](\.[^"']+)["']|^import\s+["'](\.[^"']+)["']/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((f) => existsSync(f) && f.endsWith("x") === f.endsWith(".tsx") && /\.tsx?$/.test(f));
}

/** Every relative import of the modules under `root` (tests excluded). */
export function importsUnder(root: string): Import[] {
  return sourceFiles(root).flatMap((from) =>
    [...readFileSync(from, "utf8").matchAll(IMPORT)].flatMap((m) => {
      const to = resolve(from, (m[3] ?? m[4])!);
      return to ? [{ from, to, typeOnly: Boolean(m[2]) }] : [];
    }),
  );
}

/** A server module's folder: its first folder under src/server, or the file's own name at the root (app.ts, ...). */
export function folderOf(file: string): string {
  const relative = path.relative(SERVER, file);
  // The demo data and the tests' factories build rows through the areas: they are the areas' client, not database
  // infrastructure, though they sit in db/ (moving them would touch every test).
  if (/^db\/(factories[^/]*|seed-demo)\.ts$/.test(relative)) return "db:demo-data";
  const [first, ...rest] = relative.split(path.sep);
  return rest.length ? first! : first!.replace(/\.ts$/, "");
}

/** Strongly connected components (Tarjan), each sorted; the components of one node are left out unless it loops. */
export function cycles(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges.get(v)?.has(v)) found.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

export function graphOf(imports: Import[], node: (file: string) => string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const [a, b] = [node(from), node(to)];
    if (!edges.has(a)) edges.set(a, new Set());
    if (!edges.has(b)) edges.set(b, new Set());
    if (a !== b) edges.get(a)!.add(b);
  }
  return edges;
}

/** src/server's folder graph: value imports (what runs), or every import with `types`. */
export function serverFolderGraph(options: { types?: boolean } = {}): Map<string, Set<string>> {
  const inServer = importsUnder(SERVER).filter((i) => !path.relative(SERVER, i.to).startsWith("..") && (options.types || !i.typeOnly));
  return graphOf(inServer, folderOf);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const graph = serverFolderGraph({ types: process.argv.includes("--types") });
  for (const [folder, to] of [...graph].sort(([a], [b]) => a.localeCompare(b))) console.log(`${folder} -> ${[...to].sort().join(" ")}`);
  const components = cycles(graph);
  console.log(`\n${graph.size} folders; strongly connected components of more than one folder: ${components.length}`);
  for (const component of components) console.log(`  ${component.length}: ${component.join(" ")}`);
}
