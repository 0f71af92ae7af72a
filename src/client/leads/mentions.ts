// Mentions in a note (issue 26): typing "@" and a few letters offers the dealership's members; picking one writes
// "@First Last" into the text and remembers the id. What is sent is the ids whose "@First Last" is still in the text.

export interface Mentionable {
  id: string;
  name: string;
}

/** The "@..." being typed just before the caret (its start and the letters after "@"), or null. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]{0,30})$/.exec(before);
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

/** Members whose first or last name (or full name) starts with the query, case and accents aside. */
export function matchMembers(members: readonly Mentionable[], query: string, limit = 6): Mentionable[] {
  const fold = (s: string) => s.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
  const q = fold(query);
  return members.filter((m) => fold(m.name).split(/\s+/).some((part) => part.startsWith(q)) || fold(m.name).startsWith(q)).slice(0, limit);
}

/** The text with "@Name " in place of the "@query" from `start` to `caret`, and where the caret goes. */
export function insertMention(text: string, start: number, caret: number, name: string): { text: string; caret: number } {
  const inserted = `@${name} `;
  return { text: text.slice(0, start) + inserted + text.slice(caret), caret: start + inserted.length };
}

/** The picked members still named in the text. */
export function mentionsIn(text: string, picked: readonly Mentionable[]): string[] {
  return [...new Set(picked.filter((m) => text.includes(`@${m.name}`)).map((m) => m.id))];
}
