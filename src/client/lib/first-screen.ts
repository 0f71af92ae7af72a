import { useSyncExternalStore } from "react";

// What the first screen does not need (menus' code, the toast area) waits until that screen's page is drawn, and
// then for an idle moment, so that it never competes with the page for a phone's bandwidth (issue 12, decision 070).

let drawn = false;
const listeners = new Set<() => void>();

function whenIdle(run: () => void) {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(run, { timeout: 1000 });
  else setTimeout(run, 200);
}

/** Called once the first page is on screen (routes.tsx, after the page's code has arrived). */
export function markFirstScreenDrawn(): void {
  if (drawn) return;
  whenIdle(() => {
    drawn = true;
    for (const listener of listeners) listener();
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** False while the first screen is still arriving; true from then on. */
export function useFirstScreenDrawn(): boolean {
  return useSyncExternalStore(subscribe, () => drawn, () => drawn);
}

/** What the server wrote into index.html for this session (src/server/http/static.ts, decision 125). */
export interface ServerAnswers {
  user: unknown;
  dealerships?: unknown;
  platformAdminStatus?: unknown;
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
