import { describe, expect, it } from "vitest";
import { ApiError } from "../lib/api";
import { isCodeSentMomentsAgo } from "./invitation";

// The e-mailed code request's 429s (decision 008): one means "use the code sent a moment ago", the other "no more codes".

const answer = (status: number, message: string) => new ApiError(status, "", JSON.stringify({ message }));

describe("a refused code request", () => {
  it("goes on to the code step when a code was sent a moment ago", () => {
    expect(isCodeSentMomentsAgo(answer(429, "A code was just sent. Please wait 30 seconds before requesting another."))).toBe(true);
  });

  it("stays and says so when the caps on code requests are reached", () => {
    expect(isCodeSentMomentsAgo(answer(429, "Too many verification codes requested. Please try again later."))).toBe(false);
  });

  it("is no code sent for any other failure", () => {
    expect(isCodeSentMomentsAgo(answer(400, "email: Please enter a valid email address"))).toBe(false);
  });
});
