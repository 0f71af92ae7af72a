import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// The server runs with the same Node flags however it is started (decision 254): `npm start` and the systemd unit of
// the production setup. The benchmark reads them from `npm start` (bench/servers.ts), so it measures what runs.

const flagsBefore = (command: string) => /node ((?:--\S+ )*)dist\/server\/main\.mjs/.exec(command)?.[1]?.trim().split(" ");

describe("the server's Node flags", () => {
  const start = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts.start!;
  const unit = readFileSync("deploy/systemd/showroom@.service", "utf8");

  it("give the young generation 32 MiB per semi-space in npm start", () => {
    expect(flagsBefore(start)).toContain("--max-semi-space-size=32");
  });

  it("are the same in the systemd unit's ExecStart as in npm start", () => {
    const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? "";
    expect(flagsBefore(execStart)).toEqual(flagsBefore(start));
  });
});
