import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError, apiJson, apiRequest, errorStatus, fieldErrors, formatErrorMessage, isNetworkError, isUnauthorizedError, serverMessage } from "../../src/client/lib/api";
import { readRetry, writeRetry } from "../../src/client/lib/query-client";
import { createTestApp, type TestApp } from "../helpers/test-app";

// The client's fetch wrapper (part 1 §7, §8) against the real server listening on a port.
let t: TestApp;
let base = "";

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());

describe("the client's fetch wrapper against the real server", () => {
  it("answers parsed JSON", async () => {
    expect(await apiJson("GET", `${base}/api/health`)).toEqual({ status: "ok" });
  });

  it("sends credentials, and JSON bodies with a JSON content type", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    await apiJson("POST", `${base}/api/login`, { email: "x@example.com", password: "whatever1" }).catch(() => undefined);
    const init = spy.mock.calls.at(-1)![1]!;
    expect(init.credentials).toBe("include");
    expect((init.headers as Record<string, string>)["Content-Type"]).toBe("application/json");
    expect(init.body).toBe('{"email":"x@example.com","password":"whatever1"}');
    spy.mockRestore();
  });

  it("sends form data as is, letting the browser set the multipart boundary", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    const form = new FormData();
    form.append("avatar", "x");
    await apiRequest("POST", `${base}/api/health`, form).catch(() => undefined);
    const init = spy.mock.calls.at(-1)![1]!;
    expect(init.body).toBe(form);
    expect((init.headers as Record<string, string>)["Content-Type"]).toBeUndefined();
    spy.mockRestore();
  });

  it("turns a 400 into 'status: response text' and exposes the message and failing fields", async () => {
    const error = await apiJson("POST", `${base}/api/login`, { email: "nope", password: "1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toMatch(/^400: \{"message":/);
    expect(errorStatus(error)).toBe(400);
    expect(fieldErrors(error)).toMatchObject({ email: "Please enter a valid email" });
  });

  it("gives the server's message for a toast, and the fallback when there is none", async () => {
    const error = await apiJson("POST", `${base}/api/login`, { email: "nobody@example.com", password: "secret12" }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('401: {"message":"Invalid email or password"}');
    expect(serverMessage(error, "fallback")).toBe("Invalid email or password");
    expect(isUnauthorizedError(error)).toBe(false);
    expect(serverMessage(new TypeError("Failed to fetch"), "fallback")).toBe("fallback");
    expect(formatErrorMessage(503, "Service Unavailable", "")).toBe("503: Service Unavailable");
  });

  it("recognises a lost session: a message starting 401 and containing Unauthorized", async () => {
    const error = await apiJson("GET", `${base}/api/dealerships`).catch((e: unknown) => e);
    expect((error as Error).message).toBe('401: {"message":"Unauthorized"}');
    expect(isUnauthorizedError(error)).toBe(true);
  });

  it("fails with a network-type error when nothing answers", async () => {
    const error = await apiJson("GET", "http://127.0.0.1:9/api/user").catch((e: unknown) => e);
    expect(isNetworkError(error)).toBe(true);
  });
});

describe("retries (part 1 §8)", () => {
  it("retries reads twice and writes once, only for network-type errors", () => {
    const network = new TypeError("Failed to fetch");
    expect(isNetworkError(new Error("NetworkError when attempting to fetch resource."))).toBe(true);
    expect([0, 1, 2].map((n) => readRetry(n, network))).toEqual([true, true, false]);
    expect([0, 1].map((n) => writeRetry(n, network))).toEqual([true, false]);
    const serverError = new Error("500: Internal server error");
    expect(readRetry(0, serverError)).toBe(false);
    expect(writeRetry(0, serverError)).toBe(false);
  });
});
