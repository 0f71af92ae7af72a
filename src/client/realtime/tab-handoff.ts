import { safeAppPath } from "../auth/sign-in-first";

// The e-mail link hand-off between tabs of this browser (part 2 §2 Email-redirect screen): the /email-redirect tab asks
// over a BroadcastChannel whether an open tab can show a path; every tab that can answers; the asker picks the first
// answer and tells only that tab to open the path (so two open tabs do not both jump, decision 117). Without
// BroadcastChannel tab management is silently off.

const CHANNEL = "showroom-tabs";
/** A tab on one of these pages cannot take a link: it is still deciding where to go itself (spec). */
const NOT_HANDLING = ["/", "/auth", "/email-redirect"];

type HandoffMessage =
  | { kind: "who-can-open"; requestId: string; path: string }
  | { kind: "can-open"; requestId: string; tabId: string }
  | { kind: "open"; requestId: string; tabId: string; path: string };

function randomId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function openChannel(): BroadcastChannel | null {
  try {
    return typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  } catch {
    return null;
  }
}

/** Whether a tab showing this page may take a link. */
export function canHandleLinks(pathname: string): boolean {
  return !NOT_HANDLING.includes(pathname);
}

/**
 * Asks the other tabs to show `path`; answers true once one has been told to (it focuses itself and navigates), false
 * when none answered within `timeoutMs` or the channel is unavailable.
 */
export function handToOpenTab(path: string, timeoutMs: number): Promise<boolean> {
  const channel = openChannel();
  if (!channel) return Promise.resolve(false);
  const requestId = randomId();
  return new Promise<boolean>((resolve) => {
    const finish = (handed: boolean) => {
      clearTimeout(timer);
      channel.close();
      resolve(handed);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    channel.onmessage = (event: MessageEvent<HandoffMessage>) => {
      const message = event.data;
      if (message?.kind !== "can-open" || message.requestId !== requestId) return;
      channel.postMessage({ kind: "open", requestId, tabId: message.tabId, path } satisfies HandoffMessage);
      finish(true);
    };
    channel.postMessage({ kind: "who-can-open", requestId, path } satisfies HandoffMessage);
  });
}

/**
 * Every signed-in tab listens: it answers when its current page can take a link, and opens the path when chosen.
 * Only same-origin app paths are opened. Answers a function that stops listening.
 */
export function listenForHandoffs(currentPath: () => string, open: (path: string) => void): () => void {
  const channel = openChannel();
  if (!channel) return () => undefined;
  const tabId = randomId();
  channel.onmessage = (event: MessageEvent<HandoffMessage>) => {
    const message = event.data;
    if (message?.kind === "who-can-open" && canHandleLinks(currentPath()) && safeAppPath(message.path)) {
      channel.postMessage({ kind: "can-open", requestId: message.requestId, tabId } satisfies HandoffMessage);
    } else if (message?.kind === "open" && message.tabId === tabId) {
      const path = safeAppPath(message.path);
      if (!path) return;
      if (typeof window !== "undefined") window.focus();
      open(path);
    }
  };
  return () => channel.close();
}
