import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Decision records keep their status true (docs/decisions/README.md, issue 25): each has a Status line under its
// title, every record it names as superseding it exists, and a record that says it replaces part of an earlier one
// is named in that earlier one's Status line.

const DIR = path.join(__dirname, "../../docs/decisions");
const records = readdirSync(DIR)
  .filter((f) => /^\d{3}-.*\.md$/.test(f))
  .map((file) => ({ file, number: file.slice(0, 3), text: readFileSync(path.join(DIR, file), "utf8") }));
const byNumber = new Map(records.map((r) => [r.number, r]));
const statusOf = (text: string) => text.split("\n").slice(1, 6).find((line) => line.startsWith("Status: ")) ?? "";

describe("decision records", () => {
  it("each has a Status line right under its title", () => {
    expect(records.filter((r) => !/^Status: (Accepted|Superseded by)/.test(statusOf(r.text))).map((r) => r.file)).toEqual([]);
  });

  it("each record a Status line names as superseding it exists and links to its file", () => {
    const broken = records.flatMap((r) =>
      [...statusOf(r.text).matchAll(/\[(\d{3})\]\(([^)]+)\)/g)]
        .filter(([, n, link]) => byNumber.get(n!)?.file !== link)
        .map(([link]) => `${r.file}: ${link}`),
    );
    expect(broken).toEqual([]);
  });

  it("a record that replaces part of an earlier one is named in the earlier one's Status line", () => {
    const missing = records.flatMap((r) =>
      [...r.text.matchAll(/\breplaces decisions? (\d{3})'s\b/g)]
        .map(([, n]) => n!)
        .filter((n) => n !== r.number && !statusOf(byNumber.get(n)?.text ?? "").includes(`[${r.number}]`))
        .map((n) => `${n} should say "superseded by ${r.number}"`),
    );
    expect(missing).toEqual([]);
  });
});
