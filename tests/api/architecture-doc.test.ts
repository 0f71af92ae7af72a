import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOMAIN_EVENT_TYPES } from "../../src/shared/events";

// docs/ARCHITECTURE.md stays true to the code where the code can say so (issue 25): it names every domain event type.

const doc = readFileSync(path.join(__dirname, "../../docs/ARCHITECTURE.md"), "utf8");

describe("docs/ARCHITECTURE.md", () => {
  it("names every domain event type of src/shared/events.ts", () => {
    expect(DOMAIN_EVENT_TYPES.filter((type) => !doc.includes(`\`${type}\``))).toEqual([]);
  });
});
