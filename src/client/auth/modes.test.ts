import { describe, expect, it } from "vitest";
import { pickCurrentDealership } from "../dealerships/dealership-context";
import type { DealershipSummary } from "../../shared/schemas/responses/auth";
import { initialAuthState } from "./modes";

describe("the /auth screen's starting state (part 1 §2.2)", () => {
  it("opens login mode with nothing filled by default", () => {
    expect(initialAuthState("", "")).toEqual({ mode: "login", email: "", emailLocked: false, invitation: null });
  });

  it("opens register mode for action=register and action=signup", () => {
    expect(initialAuthState("?action=register", "").mode).toBe("register");
    expect(initialAuthState("?action=signup", "").mode).toBe("register");
    expect(initialAuthState("?action=other", "").mode).toBe("login");
  });

  it("prefills and locks an e-mail from the link, from the query or the hash query", () => {
    expect(initialAuthState("?action=register&email=dana%40example.com", "")).toMatchObject({ mode: "register", email: "dana@example.com", emailLocked: true });
    expect(initialAuthState("", "#/auth?action=signup&email=lee@example.com")).toMatchObject({ mode: "register", email: "lee@example.com", emailLocked: true });
  });
});

describe("the current dealership (part 1 §1)", () => {
  const list = [
    { id: "a", name: "A" },
    { id: "b", name: "B" },
  ] as DealershipSummary[];

  it("is the user's currentDealershipId when it is in the list, otherwise the first", () => {
    expect(pickCurrentDealership(list, "b")?.id).toBe("b");
    expect(pickCurrentDealership(list, "gone")?.id).toBe("a");
    expect(pickCurrentDealership(list, null)?.id).toBe("a");
    expect(pickCurrentDealership([], "a")).toBeNull();
  });
});
