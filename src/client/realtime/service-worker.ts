// Service worker set-up on every page load (part 2 §4): on iOS Safari every worker is unregistered and the caches
// cleared (decision 118); elsewhere the caches are cleared, workers of older versions unregistered and this version
// registered as /sw.js?v=<version>; when a new worker installs while another controls the page, the page reloads
// (once per version, so a worker that keeps failing cannot loop the tab).

/** Bump when src/client/public/sw.js changes: the query makes browsers fetch and install the new script. */
export const SERVICE_WORKER_VERSION = "1";
export const SERVICE_WORKER_URL = `/sw.js?v=${SERVICE_WORKER_VERSION}`;
const RELOADED_KEY = "sw-reloaded-for";

/** iPhone, iPod and iPad Safari (an iPad reports itself as a Mac with touch); other iOS browsers are Safari inside. */
export function isIosSafari(userAgent: string, platform: string, maxTouchPoints: number): boolean {
  const ios = /iP(hone|ad|od)/.test(userAgent) || (platform === "MacIntel" && maxTouchPoints > 1);
  return ios && /Safari/.test(userAgent) && !/CriOS|FxiOS|EdgiOS/.test(userAgent);
}

async function clearCaches(): Promise<void> {
  if (typeof caches === "undefined") return;
  for (const key of await caches.keys()) await caches.delete(key);
}

function scriptOf(registration: ServiceWorkerRegistration): string | undefined {
  return (registration.active ?? registration.waiting ?? registration.installing)?.scriptURL;
}

export async function setUpServiceWorker(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  try {
    const registrations = await navigator.serviceWorker.getRegistrations();
    await clearCaches();
    if (isIosSafari(navigator.userAgent, navigator.platform, navigator.maxTouchPoints)) {
      await Promise.all(registrations.map((r) => r.unregister()));
      return;
    }
    const current = new URL(SERVICE_WORKER_URL, window.location.origin).href;
    await Promise.all(registrations.filter((r) => scriptOf(r) !== current).map((r) => r.unregister()));
    const registration = await navigator.serviceWorker.register(SERVICE_WORKER_URL);
    registration.addEventListener("updatefound", () => {
      const worker = registration.installing;
      worker?.addEventListener("statechange", () => {
        if (worker.state !== "installed" || !navigator.serviceWorker.controller) return;
        if (sessionStorage.getItem(RELOADED_KEY) === SERVICE_WORKER_VERSION) return;
        sessionStorage.setItem(RELOADED_KEY, SERVICE_WORKER_VERSION);
        window.location.reload();
      });
    });
  } catch (error) {
    console.error("Service worker set-up failed", error);
  }
}
