// What a customer's reply says, without the history it quotes (issue 26, decision 229). mailparser already gives the
// text of the mail (an HTML-only mail reduced to text by html-to-text, its own dependency); here the quoted part is
// cut: everything from the first line that introduces a quote as the common mail programs write it ("On ... wrote:",
// Outlook's "-----Original Message-----" or its "From: ... Sent: ..." block, a "Le ... a écrit :"), and any trailing
// run of "> " lines. A reply that is nothing but a quote keeps its text, so nothing the customer sent is lost.

const QUOTE_INTRODUCTIONS = [
  /^\s*On\b.{0,300}\bwrote:\s*$/i,
  /^\s*Le\b.{0,300}\ba écrit\s*:\s*$/i,
  /^\s*El\b.{0,300}\bescribió:\s*$/i,
  /^\s*Am\b.{0,300}\bschrieb\b.{0,100}:\s*$/i,
  /^\s*-{2,}\s*Original Message\s*-{2,}\s*$/i,
  /^\s*-{2,}\s*Forwarded message\s*-{2,}\s*$/i,
  /^\s*_{10,}\s*$/,
];

/** Outlook's header block: "From: ..." followed within two lines by "Sent:" or "Date:". */
function outlookBlockAt(lines: string[], i: number): boolean {
  if (!/^\s*\*?From:\*?\s/i.test(lines[i]!)) return false;
  return lines.slice(i + 1, i + 4).some((line) => /^\s*\*?(Sent|Date):\*?\s/i.test(line));
}

/** Gmail wraps a long "On <date>, <name> <address> wrote:" over two lines. */
function wrappedIntroductionAt(lines: string[], i: number): boolean {
  return /^\s*On\b/i.test(lines[i]!) && /\bwrote:\s*$/i.test(lines[i + 1] ?? "") && !/^\s*$/.test(lines[i + 1] ?? "");
}

export function withoutQuotedHistory(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let end = lines.length;
  for (let i = 0; i < lines.length; i++) {
    if (QUOTE_INTRODUCTIONS.some((pattern) => pattern.test(lines[i]!)) || outlookBlockAt(lines, i) || wrappedIntroductionAt(lines, i)) {
      end = i;
      break;
    }
  }
  let kept = lines.slice(0, end);
  // A quote without an introduction: the trailing lines that start with ">" (blank lines between them included).
  let last = kept.length;
  while (last > 0 && (/^\s*>/.test(kept[last - 1]!) || /^\s*$/.test(kept[last - 1]!))) last -= 1;
  if (kept.slice(last).some((line) => /^\s*>/.test(line))) kept = kept.slice(0, last);
  const answer = kept.join("\n").trim();
  return answer || text.trim();
}
