import { QueryClientProvider } from "@tanstack/react-query";
import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { AuthProvider } from "./auth/auth-provider";
import { DEALERSHIPS_KEY, PLATFORM_ADMIN_STATUS_KEY, USER_KEY } from "./auth/keys";
import { probablySignedIn, rememberSignedIn } from "./auth/signed-in-hint";
import { ToasterOnDemand } from "./components/toaster-on-demand";
import { keepFirstReads, takeServerAnswers, whenFirstScreenDrawn } from "./lib/first-screen";
import { queryClient } from "./lib/query-client";
import { reloadForNewBuild } from "./lib/stale-build";
import { AppRoutes, preloadFirstScreen } from "./routes";
import "./styles.css";

// The server wrote who this is into the page (decision 125): the first screen draws without asking the API first.
const answers = takeServerAnswers();
if (answers) {
  rememberSignedIn(answers.user !== null);
  queryClient.setQueryData(USER_KEY, answers.user);
  if (answers.user !== null) {
    queryClient.setQueryData(DEALERSHIPS_KEY, answers.dealerships);
    queryClient.setQueryData(PLATFORM_ADMIN_STATUS_KEY, answers.platformAdminStatus);
    keepFirstReads(answers.reads);
  }
}
preloadFirstScreen(window.location.pathname);
// Without the server's answers, a returning user's dealerships and admin status are asked together with "who is
// this?" instead of after it (issue 12). A 401 here is only a stale hint: it signs nobody out, the user query decides.
if (!answers && probablySignedIn()) {
  for (const queryKey of [DEALERSHIPS_KEY, PLATFORM_ADMIN_STATUS_KEY]) void queryClient.prefetchQuery({ queryKey, meta: { allowUnauthorized: true } });
}

// Vite's own module preloads (a page's CSS and shared chunks) fail the same way after a deploy: reload once.
window.addEventListener("vite:preloadError", (event) => {
  if (reloadForNewBuild()) event.preventDefault();
});

// The service worker (part 2 §4) is set up once the first screen and its answers are drawn, never in their way.
whenFirstScreenDrawn(() => void import("./realtime/service-worker").then((m) => m.setUpServiceWorker()));

// A transition: React draws the first screen in slices, yielding to the browser between them, instead of one long
// task a phone cannot answer a tap during (Lighthouse's blocking time, issue 12).
const root = createRoot(document.getElementById("root")!);
startTransition(() => root.render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <AuthProvider>
          <AppRoutes />
        </AuthProvider>
        <ToasterOnDemand />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
));
