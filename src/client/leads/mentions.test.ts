import { describe, expect, it } from "vitest";
import { insertMention, matchMembers, mentionQueryAt, mentionsIn } from "./mentions";

const members = [
  { id: "u1", name: "Anneliese Oppenheimer-Vasquez" },
  { id: "u2", name: "José Álvarez" },
  { id: "u3", name: "Sam Sales" },
];

describe("mentions in a note", () => {
  it("finds the @word being typed at the caret, not an e-mail address", () => {
    expect(mentionQueryAt("Call @An", 8)).toEqual({ start: 5, query: "An" });
    expect(mentionQueryAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionQueryAt("mail sam@example.com", 20)).toBeNull();
    expect(mentionQueryAt("@Sam done", 9)).toBeNull();
  });

  it("matches first or last names, accents aside", () => {
    expect(matchMembers(members, "jos").map((m) => m.id)).toEqual(["u2"]);
    expect(matchMembers(members, "alv").map((m) => m.id)).toEqual(["u2"]);
    expect(matchMembers(members, "").map((m) => m.id)).toEqual(["u1", "u2", "u3"]);
  });

  it("writes @First Last and sends only the ids still in the text", () => {
    const { text, caret } = insertMention("Call @An today", 5, 8, "Anneliese Oppenheimer-Vasquez");
    expect(text).toBe("Call @Anneliese Oppenheimer-Vasquez  today");
    expect(caret).toBe(36);
    expect(mentionsIn(text, members)).toEqual(["u1"]);
    expect(mentionsIn("nobody here", members)).toEqual([]);
  });
});
