import { api } from "../lib/api";
import { SERVICE_WORKER_URL } from "../realtime/service-worker";

// Web push on this device (issue 11): after sign-in, a browser that already allowed notifications is subscribed
// silently; one that has not been asked offers "Enable notifications" in the bell (a click asks; a browser only
// shows its prompt after a gesture, and asking unprompted gets the site blocked). Failures are only logged.

export type PushState = "unsupported" | "default" | "granted" | "denied";

export function pushState(): PushState {
  if (typeof window === "undefined" || !("Notification" in window) || !("serviceWorker" in navigator) || !("PushManager" in window)) {
    return "unsupported";
  }
  return Notification.permission;
}

/** The VAPID public key (base64url) as the bytes PushManager.subscribe wants. */
export function applicationServerKey(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A short name for this browser in the server's list of devices (at most 100 characters, PUSH_DEVICE_MAX_LENGTH). */
function deviceLabel(): string {
  const ua = navigator.userAgent;
  const browser = /Edg\//.test(ua) ? "Edge" : /Firefox\//.test(ua) ? "Firefox" : /Chrome\//.test(ua) ? "Chrome" : /Safari\//.test(ua) ? "Safari" : "Browser";
  const system = /Android/.test(ua) ? "Android" : /iPhone|iPad|iPod/.test(ua) ? "iOS" : /Mac OS X/.test(ua) ? "macOS" : /Windows/.test(ua) ? "Windows" : /Linux/.test(ua) ? "Linux" : "";
  return (system ? `${browser} on ${system}` : browser).slice(0, 100);
}

async function workerRegistration(): Promise<ServiceWorkerRegistration> {
  return (await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL)) ?? (await navigator.serviceWorker.register(SERVICE_WORKER_URL));
}

/** Subscribes this browser with the server's key and tells the server; needs permission 'granted'. */
export async function subscribeToPush(): Promise<boolean> {
  if (pushState() !== "granted") return false;
  try {
    const { publicKey } = await api.get<{ publicKey: string }>("/api/push/public-key");
    const registration = await workerRegistration();
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: applicationServerKey(publicKey) }));
    await api.post("/api/push/subscriptions", { ...subscription.toJSON(), device: deviceLabel() });
    return true;
  } catch (error) {
    console.error("Push subscription failed", error);
    return false;
  }
}

/** The bell's "Enable notifications": asks the browser, then subscribes when allowed. */
export async function enablePush(): Promise<PushState> {
  if (pushState() === "unsupported") return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission === "granted") await subscribeToPush();
  return permission;
}
