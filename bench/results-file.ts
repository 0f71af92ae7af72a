import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// bench/RESULTS.md holds one section per benchmark between `<!-- key:start -->` and `<!-- key:end -->`: a run replaces
// its own section and leaves the others as they were (a new key goes at the end).

export const RESULTS = fileURLToPath(new URL("RESULTS.md", import.meta.url));

export function replaceResultsSection(key: string, body: string): void {
  const start = `<!-- ${key}:start -->`;
  const end = `<!-- ${key}:end -->`;
  const current = readFileSync(RESULTS, "utf8");
  const section = `${start}\n${body.trimEnd()}\n${end}`;
  const at = current.indexOf(start);
  const until = current.indexOf(end, at);
  writeFileSync(RESULTS, at >= 0 && until >= 0 ? current.slice(0, at) + section + current.slice(until + end.length) : `${current.trimEnd()}\n\n${section}\n`);
}
