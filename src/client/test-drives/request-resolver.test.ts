import { describe, expect, it } from "vitest";
import { z } from "zod";
import { requestResolver, serverFieldMessages } from "./request-resolver";

// A form with one "full name" field sent as first and last name.
const schema = z.object({ firstName: z.string().min(1, "First name is required"), lastName: z.string().min(1, "Last name is required"), age: z.number() });
type Values = { fullName: string; age: string };
const toRequest = (v: Values) => ({ firstName: v.fullName.split(" ")[0] ?? "", lastName: v.fullName.split(" ").slice(1).join(" "), age: Number(v.age) });
const fieldOf = (path: string): keyof Values | undefined => (path === "firstName" || path === "lastName" ? "fullName" : path === "age" ? "age" : undefined);
const resolve = (values: Values, own?: (v: Values) => Partial<Record<keyof Values, string>>) =>
  requestResolver<Values>(schema, toRequest, fieldOf, own)(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe("validating a form through the request the server receives", () => {
  it("passes values whose request the schema accepts", async () => {
    expect(await resolve({ fullName: "Ada Lovelace", age: "36" })).toEqual({ values: { fullName: "Ada Lovelace", age: "36" }, errors: {} });
  });

  it("puts the request's messages on the form field they come from, the first one each", async () => {
    const result = await resolve({ fullName: "", age: "x" });
    expect(result.errors).toEqual({ fullName: { type: "validate", message: "First name is required" }, age: expect.objectContaining({ type: "validate" }) });
  });

  it("adds the form's own checks first", async () => {
    const result = await resolve({ fullName: "Ada Lovelace", age: "36" }, () => ({ age: "Age must be a number" }));
    expect(result.errors).toEqual({ age: { type: "validate", message: "Age must be a number" } });
  });

  it("maps the server's per-field messages the same way and drops fields the form does not have", () => {
    expect(serverFieldMessages<Values>({ lastName: "Too long", dealershipId: "Unknown" }, fieldOf)).toEqual([["fullName", "Too long"]]);
  });
});
