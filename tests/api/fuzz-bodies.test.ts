import { describe, expect, it } from "vitest";
import { bodyAttempts, PUBLIC_WRITES, run, useFuzzedApp } from "./fuzz/hostile-input";

// On the embedded database only: hostile input is refused by the routes' validation before any query, and what does
// reach a query meets the same parser and type input functions on PGlite (PostgreSQL's own code) as on the server;
// the server run repeated 65 s of identical answers (issue 24).
// Hostile input, part 3 of 3: whole bodies and each field of every write route (tests/api/fuzz/hostile-input.ts).

useFuzzedApp();

describe("every route under hostile input", () => {
  it("answers hostile JSON bodies and fields signed out (every field of the public routes; the rest answer 401 whatever the body)", async () => {
    expect(await run(bodyAttempts((route) => PUBLIC_WRITES.has(route)), false)).toEqual([]);
  }, 240_000);

  it("answers hostile JSON bodies and fields signed in, without a server error", async () => {
    expect(await run(bodyAttempts(() => true), true)).toEqual([]);
  }, 240_000);
});
