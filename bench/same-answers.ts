// Before anything is timed, the floor must answer exactly as the app does, or the ratio means nothing: same status,
// same JSON bytes, same Link header. A claim's claimedAt is the moment it happened, so two claims can only agree on
// everything else; that one field is masked.

export interface HttpAnswer {
  status: number;
  body: string;
  link: string | null;
}

export interface Question {
  what: string;
  method: "GET" | "POST";
  path: string;
  cookie?: string;
  /** Put the world back between servers (a claim changes the lead it claims). */
  before?: () => Promise<void>;
  /** Mask the claim's timestamp before comparing. */
  claim?: boolean;
}

export async function ask(base: string, question: Pick<Question, "method" | "path" | "cookie">): Promise<HttpAnswer> {
  const response = await fetch(base + question.path, {
    method: question.method,
    headers: question.cookie ? { cookie: question.cookie } : {},
  });
  return { status: response.status, body: await response.text(), link: response.headers.get("link") };
}

function masked(body: string): string {
  return body.replace(/"claimedAt":"[^"]*"/, '"claimedAt":"(when claimed)"');
}

/** How `b` differs from `a`, in words; empty when they are the same answer. */
export function differences(a: HttpAnswer, b: HttpAnswer, options: { claim?: boolean } = {}): string[] {
  const found: string[] = [];
  if (a.status !== b.status) found.push(`status ${a.status} vs ${b.status}`);
  if (a.link !== b.link) found.push(`Link ${JSON.stringify(a.link)} vs ${JSON.stringify(b.link)}`);
  const [x, y] = options.claim ? [masked(a.body), masked(b.body)] : [a.body, b.body];
  if (x !== y) {
    let i = 0;
    while (i < x.length && x[i] === y[i]) i++;
    const from = Math.max(0, i - 60);
    found.push(`body differs at byte ${i} (${x.length} vs ${y.length} bytes): …${x.slice(from, i + 60)}… vs …${y.slice(from, i + 60)}…`);
  }
  return found;
}

export interface Server {
  name: string;
  base: string;
}

/** Asks every server every question; answers each mismatch with the reference server's (the first) answer. */
export async function compareServers(servers: Server[], questions: Question[]): Promise<string[]> {
  const [reference, ...others] = servers;
  if (!reference) return [];
  const mismatches: string[] = [];
  for (const question of questions) {
    await question.before?.();
    const expected = await ask(reference.base, question);
    for (const other of others) {
      await question.before?.();
      const answer = await ask(other.base, question);
      for (const d of differences(expected, answer, { claim: question.claim })) {
        mismatches.push(`${question.what} (${question.method} ${question.path}): ${reference.name} vs ${other.name}: ${d}`);
      }
    }
  }
  return mismatches;
}
