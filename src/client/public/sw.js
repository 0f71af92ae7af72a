/* global self */
/* Showroom's service worker (part 2 §4): it caches nothing; it shows web pushes and opens their page when clicked.
   Registered as /sw.js?v=<version> by src/client/realtime/service-worker.ts. */

self.addEventListener("install", () => {
  // A new version takes over at once; the page reloads itself when that happens (service-worker.ts).
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

/** The push payload: {title, body (or message), url}; anything unreadable still shows something. */
function readPush(event) {
  if (!event.data) return {};
  try {
    return event.data.json();
  } catch {
    return { body: event.data.text() };
  }
}

/** Only this app's own pages are opened from a notification. */
function appUrl(url) {
  try {
    const target = new URL(url || "/", self.location.origin);
    return target.origin === self.location.origin ? target.href : new URL("/", self.location.origin).href;
  } catch {
    return new URL("/", self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  const push = readPush(event);
  const title = push.title || "Showroom";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: push.body || push.message || "",
      icon: "/favicon.svg",
      tag: push.tag || undefined,
      data: { url: appUrl(push.url || (push.data && push.data.url)) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = appUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      // A tab of this app already open: bring it forward on that page instead of opening another.
      for (const client of windows) {
        if (new URL(client.url).origin !== self.location.origin) continue;
        await client.focus();
        if ("navigate" in client) await client.navigate(url).catch(() => undefined);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
