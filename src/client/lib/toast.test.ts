import { describe, expect, it } from "vitest";
import { TOAST_DURATION_MS } from "../../shared/constants";
import { peekToasts, toast, toastAndHold } from "./toast";

// The store behind <Toaster/> (part 1 §9).
describe("toasts", () => {
  it("shows one toast at a time: a new one replaces the one on screen", () => {
    toast({ title: "First" });
    toast({ title: "Second", description: "wins", variant: "success" });
    expect(peekToasts()).toEqual([expect.objectContaining({ title: "Second", description: "wins", variant: "success", open: true })]);
  });

  it("uses the spec's duration unless told otherwise", () => {
    toast({ title: "Default" });
    expect(peekToasts()[0]!.duration).toBe(TOAST_DURATION_MS);
    toast({ title: "Short", duration: 1500 });
    expect(peekToasts()[0]!.duration).toBe(1500);
  });

  it("keeps the lost-session toast on screen: later toasts are dropped", () => {
    toastAndHold({ title: "Unauthorized", description: "You are logged out. Logging in again...", variant: "destructive" });
    toast({ title: "Failed to claim lead. Please try again.", variant: "destructive" });
    expect(peekToasts()).toEqual([expect.objectContaining({ title: "Unauthorized" })]);
  });
});
