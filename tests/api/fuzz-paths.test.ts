import { describe, expect, it } from "vitest";
import { pathAttempts, routesWithoutSample, run, useFuzzedApp } from "./fuzz/hostile-input";

// On the embedded database only: hostile input is refused by the routes' validation before any query, and what does
// reach a query meets the same parser and type input functions on PGlite (PostgreSQL's own code) as on the server;
// the server run repeated 65 s of identical answers (issue 24).
// Hostile input, part 1 of 3: the table itself and every path parameter (tests/api/fuzz/hostile-input.ts; decision 037).

useFuzzedApp();

describe("every route under hostile input", () => {
  it("knows a valid body for every route that reads one (the table stays honest)", () => {
    expect(routesWithoutSample()).toEqual([]);
  });

  it("answers hostile path parameters without a server error, signed out and signed in", async () => {
    const attempts = pathAttempts();
    expect(attempts.length).toBeGreaterThan(20);
    expect([...(await run(attempts, false)), ...(await run(attempts, true))]).toEqual([]);
  }, 240_000);
});
