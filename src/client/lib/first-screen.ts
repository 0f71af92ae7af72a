import { useDeferredValue, useSyncExternalStore } from "react";
import type { FirstRead } from "../../shared/first-reads";

// What the first screen does not need (menus' code, the toast area) waits until that screen's page is drawn, and
// then for an idle moment, so that it never competes with the page for a phone's bandwidth (issue 12, decision 070).

let drawn = false;
let waiting = false;
const listeners = new Set<() => void>();
/** The page's own answers are waited for at most this long (a slow server must not hold the menus back for ever). */
const PAGE_DATA_WAIT_MS = 3000;
const PAGE_DATA_POLL_MS = 50;

function whenIdle(run: () => void) {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(run, { timeout: 1000 });
  else setTimeout(run, 200);
}

/**
 * Runs once the page's own reads have answered (none in flight), or after PAGE_DATA_WAIT_MS: the dashboard's six
 * answers arrive and are drawn without the menus', the bell's and the socket's code downloading and running beside
 * them (on a phone they shared the bandwidth and the main thread: Lighthouse's blocking time, issue 12).
 */
function afterPageData(isFetching: () => number, run: () => void) {
  const started = Date.now();
  const check = () => {
    if (isFetching() === 0 || Date.now() - started > PAGE_DATA_WAIT_MS) run();
    else setTimeout(check, PAGE_DATA_POLL_MS);
  };
  setTimeout(check, 0); // the page's queries start in the same commit as this call: look once they have
}

/** Called once the first page is on screen (routes.tsx, after the page's code has arrived). */
export function markFirstScreenDrawn(isFetching: () => number = () => 0): void {
  if (drawn || waiting) return;
  waiting = true;
  afterPageData(isFetching, () =>
    whenIdle(() => {
      drawn = true;
      for (const listener of listeners) listener();
    }),
  );
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Runs `run` once the first screen is drawn (at once when it already is), outside React. */
export function whenFirstScreenDrawn(run: () => void): void {
  if (drawn) return run();
  const once = () => {
    listeners.delete(once);
    run();
  };
  listeners.add(once);
}

/** Whether the first screen is drawn (outside React). */
export function firstScreenDrawnNow(): boolean {
  return drawn;
}

/**
 * False while the first screen is still arriving; true from then on. The switch is drawn as a deferred render: an
 * external store's change is otherwise drawn in one blocking task, and what it mounts (the menus, the bell, the live
 * parts) cost a phone's main thread up to 240 ms at once (issue 32). Deferred, React draws it in slices and yields
 * between them. A component mounted after the switch reads true at once.
 */
export function useFirstScreenDrawn(): boolean {
  return useDeferredValue(useSyncExternalStore(subscribe, () => drawn, () => drawn));
}

/** What the server wrote into index.html for this session (src/server/http/static.ts, decision 125). */
export interface ServerAnswers {
  user: unknown;
  dealerships?: unknown;
  platformAdminStatus?: unknown;
  /** The page's first reads, by path (src/shared/first-reads.ts, decision 161). */
  reads?: Record<string, FirstRead>;
}

/** How long after the page loaded the server's first reads still stand in for a call (then the API is asked). */
export const FIRST_READS_FRESH_MS = 10_000;

let firstReadsKept: Map<string, FirstRead> | null = null;
let firstReadsUntil = 0;

/** Keeps the server's first reads for the page's own calls to take (main.tsx, with the answers above). */
export function keepFirstReads(reads: Record<string, FirstRead> | undefined, now = performance.now()): void {
  firstReadsKept = reads ? new Map(Object.entries(reads)) : null;
  firstReadsUntil = now + FIRST_READS_FRESH_MS;
}

/**
 * The server's answer to this GET, as a Response, once: the first call to each path takes it, any later call (a
 * refetch) asks the API. null when there is none, or the page has been open too long for it to be news.
 */
export function takeFirstRead(url: string, now = performance.now()): Response | null {
  const read = firstReadsKept?.get(url);
  if (!read) return null;
  firstReadsKept!.delete(url);
  if (now > firstReadsUntil) return null;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (read.link) headers.link = read.link;
  return new Response(JSON.stringify(read.body), { status: 200, headers });
}

/**
 * The server's answers to "who is this?" (user, dealerships, platform-admin status) when it served index.html,
 * read once: they save the first screen one or two API rounds. null when the page came without them (the Vite dev
 * server, an older server): the app then asks the API as before.
 */
export function takeServerAnswers(): ServerAnswers | null {
  const element = document.getElementById("first-screen-data");
  if (!element) return null;
  element.remove();
  try {
    const answers = JSON.parse(element.textContent ?? "") as ServerAnswers;
    return answers && typeof answers === "object" && "user" in answers ? answers : null;
  } catch {
    return null;
  }
}
