import { lazy, Suspense, useEffect, type ComponentType, type ReactElement } from "react";
import { matchRoutes, Navigate, Route, Routes, useLocation } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { useAuth } from "./auth/auth-provider";
import { probablySignedIn, rememberSignedIn } from "./auth/signed-in-hint";
import { SignInFirst } from "./auth/sign-in-first";
import { usePlatformAdminStatus } from "./auth/use-platform-admin";
import { FullScreenSpinner, Spinner } from "./components/ui/spinner";
import { DealershipProvider } from "./dealerships/dealership-context";
import { markFirstScreenDrawn } from "./lib/first-screen";
import { KnownRoutesProvider } from "./lib/known-routes";
import { reloadOnChunkError } from "./lib/stale-build";

// Every page, and each shell, is its own download (issue 12, decision 070): the first screen fetches the bootstrap
// (React, the router, the query client, sign-in state, toasts) and then only what that screen draws.
// A page module keeps its named export; `page()` adapts it for React.lazy and keeps the loader to start it early.
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return Object.assign(
    // A chunk the server no longer has (a new build was deployed meanwhile) reloads the page once (issue 31).
    lazy(() => load().then((module) => ({ default: pick(module) }), reloadOnChunkError)),
    { preload: () => void load() },
  );
}

const AppShell = page(() => import("./components/shell/app-shell"), (m) => m.AppShell);
const PlatformAdminShell = page(() => import("./components/shell/platform-admin-shell"), (m) => m.PlatformAdminShell);
const AdminPage = page(() => import("./admin/AdminPage"), (m) => m.AdminPage);
const AuthPage = page(() => import("./auth/AuthPage"), (m) => m.AuthPage);
const CalendarPage = page(() => import("./appointments/CalendarPage"), (m) => m.CalendarPage);
const CreateLeadPage = page(() => import("./leads/CreateLeadPage"), (m) => m.CreateLeadPage);
const DashboardPage = page(() => import("./dashboard/DashboardPage"), (m) => m.DashboardPage);
const MyDayPage = page(() => import("./tasks/MyDayPage"), (m) => m.MyDayPage);
const EmailRedirectPage = page(() => import("./pages/EmailRedirectPage"), (m) => m.EmailRedirectPage);
const LeadDetailPage = page(() => import("./leads/LeadDetailPage"), (m) => m.LeadDetailPage);
const MyClientsPage = page(() => import("./leads/MyClientsPage"), (m) => m.MyClientsPage);
const RecentlyDeletedPage = page(() => import("./leads/RecentlyDeletedPage"), (m) => m.RecentlyDeletedPage);
const NewLeadsPage = page(() => import("./leads/NewLeadsPage"), (m) => m.NewLeadsPage);
const NotFoundPage = page(() => import("./pages/NotFoundPage"), (m) => m.NotFoundPage);
const PlatformAdminPage = page(() => import("./platform-admin/PlatformAdminPage"), (m) => m.PlatformAdminPage);
const ScheduleAppointmentPage = page(() => import("./appointments/ScheduleAppointmentPage"), (m) => m.ScheduleAppointmentPage);
const ProfilePage = page(() => import("./profile/ProfilePage"), (m) => m.ProfilePage);
const ResetPasswordPage = page(() => import("./auth/ResetPasswordPage"), (m) => m.ResetPasswordPage);
const TestDrivesPage = page(() => import("./test-drives/TestDrivesPage"), (m) => m.TestDrivesPage);
const BookTestDrivePage = page(() => import("./test-drives/BookTestDrivePage"), (m) => m.BookTestDrivePage);
const TestDriveDetailPage = page(() => import("./test-drives/TestDriveDetailPage"), (m) => m.TestDriveDetailPage);
const TestDriveAnalyticsPage = page(() => import("./analytics/TestDriveAnalyticsPage"), (m) => m.TestDriveAnalyticsPage);
const SalesRepAnalyticsPage = page(() => import("./analytics/SalesRepAnalyticsPage"), (m) => m.SalesRepAnalyticsPage);

/*
 * ROUTE TABLE — spec part 1 §2.1 and part 2 §2. Adding a page is TWO lines: a lazy `page(...)` constant above
 * (never a static import of a page: it would land in everyone's first download; bench/bundle-size.ts checks) and
 * one line in the right list:
 *
 *   userRoutes           signed-in regular users, drawn inside the app shell (header, sidebar, bottom bar).
 *                        e.g. { path: "/leads/new", element: <NewLeadsPage /> },
 *                        `shell: false` draws the page without the shell.
 *   platformAdminRoutes  platform admins: only these exist for them, inside the simplified platform shell
 *                        (add /profile here AND in userRoutes when the profile page lands).
 *   publicRoutes         signed-out visitors only; a signed-in visitor is sent to / (routing decides from there).
 *   openRoutes           everyone, signed in or not, without a shell (e.g. /email-redirect).
 *
 * Everything not listed falls to the unknown-route rule: signed out → the "404 Page Not Found" screen (and / → /auth);
 * regular user → /; platform admin → /platform-admin. Routes of areas not built yet are simply absent.
 * A signed-out visitor opening a path of userRoutes or platformAdminRoutes is sent to /auth?next=<path> instead
 * (issue 12): after signing in they land on that page.
 * A navigation item or floating button appears only when its path is routed here (components/shell/nav.ts).
 */

export interface AppRoute {
  path: string;
  element: ReactElement;
  /** userRoutes only: false draws the page full-screen, outside the shell. */
  shell?: boolean;
}

export const userRoutes: AppRoute[] = [
  { path: "/", element: <DashboardPage /> },
  { path: "/dashboard", element: <DashboardPage /> },
  { path: "/my-day", element: <MyDayPage /> },
  { path: "/leads/new", element: <NewLeadsPage /> },
  { path: "/leads/my", element: <MyClientsPage /> },
  { path: "/leads/create", element: <CreateLeadPage /> },
  { path: "/leads/detail/:leadId", element: <LeadDetailPage /> },
  { path: "/leads/deleted", element: <RecentlyDeletedPage /> },
  { path: "/admin", element: <AdminPage /> },
  { path: "/calendar", element: <CalendarPage /> },
  { path: "/appointments/new", element: <ScheduleAppointmentPage /> },
  { path: "/profile", element: <ProfilePage /> },
  { path: "/test-drives", element: <TestDrivesPage /> },
  { path: "/test-drives/book", element: <BookTestDrivePage /> },
  { path: "/book-test-drive", element: <BookTestDrivePage /> },
  { path: "/test-drives/:testDriveId", element: <TestDriveDetailPage /> },
  { path: "/tdus", element: <TestDriveAnalyticsPage /> },
  { path: "/sales-analytics", element: <SalesRepAnalyticsPage /> },
  // A regular user opening /platform-admin is checked, told, and sent to / (part 2 §2).
  { path: "/platform-admin", element: <PlatformAdminPage />, shell: false },
];

export const platformAdminRoutes: AppRoute[] = [
  { path: "/platform-admin", element: <PlatformAdminPage /> },
  { path: "/profile", element: <ProfilePage /> },
];

export const publicRoutes: AppRoute[] = [{ path: "/auth", element: <AuthPage /> }];

// The e-mailed reset link works whoever is signed in here: using it ends every session of its account anyway.
// /email-redirect is where notification e-mails link: signed out it signs in first, then opens the target (part 2 §2).
export const openRoutes: AppRoute[] = [
  { path: "/reset-password", element: <ResetPasswordPage /> },
  { path: "/email-redirect", element: <EmailRedirectPage /> },
];

const paths = (routes: AppRoute[]) => routes.map((r) => r.path);

/** While a page's code downloads: inside a shell the shell stays and only the page area waits. */
function PageLoading({ fullScreen }: { fullScreen: boolean }) {
  if (fullScreen) return <FullScreenSpinner label="Loading..." />;
  return (
    <div role="status" aria-live="polite" className="flex justify-center py-16 text-muted-foreground">
      <Spinner className="size-6 text-primary" />
      <span className="sr-only">Loading...</span>
    </div>
  );
}

/** Rendered after a page once its code has arrived: what the first screen did not need may download now. */
function PageDrawn() {
  const queryClient = useQueryClient();
  useEffect(() => markFirstScreenDrawn(() => queryClient.isFetching()), [queryClient]);
  return null;
}

function draw(routes: AppRoute[], { fullScreen = true } = {}) {
  return routes.map((r) => (
    <Route
      key={r.path}
      path={r.path}
      element={
        <Suspense fallback={<PageLoading fullScreen={fullScreen} />}>
          {r.element}
          <PageDrawn />
        </Suspense>
      }
    />
  ));
}

type Preloadable = { preload?: () => void } | undefined;

/** Starts downloading the page routed at this path (and its shell) in this list; answers whether there was one. */
function preloadRoute(routes: AppRoute[], pathname: string, shell: { preload: () => void } | null): boolean {
  const type = matchRoutes(routes, pathname)?.[0]?.route.element?.type as Preloadable;
  if (!type?.preload) return false;
  shell?.preload();
  type.preload();
  return true;
}

/**
 * Before the server has said who this is (main.tsx): fetch the code of the screen this address will most likely
 * show, so that it arrives together with the answer instead of after it (issue 12).
 */
export function preloadFirstScreen(pathname: string): void {
  if (preloadRoute([...publicRoutes, ...openRoutes], pathname, null)) return;
  if (probablySignedIn()) preloadRoute(userRoutes, pathname, AppShell);
}

/**
 * Starts downloading the shell and the page at this address at once, instead of the page only after its shell has
 * arrived (a lazy layout renders its outlet only once it is loaded).
 */
function usePreload(routes: AppRoute[], shell: { preload: () => void } | null) {
  const { pathname } = useLocation();
  useEffect(() => void preloadRoute(routes, pathname, shell), [routes, shell, pathname]);
}

/** Paths that exist once signed in: a signed-out visitor opening one (a bookmark) signs in and comes back. */
const signInFirstPaths = [...new Set([...paths(userRoutes), ...paths(platformAdminRoutes)])].filter((p) => p !== "/");

function SignedOutRoutes() {
  usePreload(publicRoutes, null);
  return (
    <KnownRoutesProvider patterns={[...paths(publicRoutes), ...paths(openRoutes)]}>
      <Routes>
        {draw(openRoutes)}
        {draw(publicRoutes)}
        <Route path="/" element={<Navigate to="/auth" replace />} />
        {signInFirstPaths.map((path) => (
          <Route key={path} path={path} element={<SignInFirst />} />
        ))}
        {draw([{ path: "*", element: <NotFoundPage /> }])}
      </Routes>
    </KnownRoutesProvider>
  );
}

function PlatformAdminRoutes() {
  usePreload(platformAdminRoutes, PlatformAdminShell);
  return (
    <KnownRoutesProvider patterns={[...paths(platformAdminRoutes), ...paths(openRoutes)]}>
      <Routes>
        {draw(openRoutes)}
        <Route element={<Suspense fallback={<PageLoading fullScreen />}><PlatformAdminShell /></Suspense>}>{draw(platformAdminRoutes, { fullScreen: false })}</Route>
        <Route path="*" element={<Navigate to="/platform-admin" replace />} />
      </Routes>
    </KnownRoutesProvider>
  );
}

function RegularUserRoutes() {
  return (
    <KnownRoutesProvider patterns={[...paths(userRoutes), ...paths(openRoutes)]}>
      <Routes>
        {draw(openRoutes)}
        {draw(userRoutes.filter((r) => r.shell === false))}
        <Route element={<Suspense fallback={<PageLoading fullScreen />}><AppShell /></Suspense>}>{draw(userRoutes.filter((r) => r.shell !== false), { fullScreen: false })}</Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </KnownRoutesProvider>
  );
}

function SignedInRoutes() {
  // Most people are regular users: fetch their shell, page and dealerships while the admin status is asked.
  usePreload(userRoutes, AppShell);
  return (
    <DealershipProvider>
      <SignedInAudience />
    </DealershipProvider>
  );
}

function SignedInAudience() {
  const { isPlatformAdmin, isLoading } = usePlatformAdminStatus();
  if (isLoading) return <FullScreenSpinner label="Loading dashboard..." />;
  return isPlatformAdmin ? <PlatformAdminRoutes /> : <RegularUserRoutes />;
}

export function AppRoutes() {
  const { user, isLoading } = useAuth();
  const { pathname } = useLocation();
  useEffect(() => {
    if (!isLoading) rememberSignedIn(Boolean(user));
  }, [user, isLoading]);
  if (isLoading) {
    // The sign-in screen does not wait for the server's "who is this?": a signed-in visitor is sent on when it answers.
    if (matchRoutes(publicRoutes, pathname) && !probablySignedIn()) return <SignedOutRoutes />;
    return <FullScreenSpinner label="Loading..." />;
  }
  return user ? <SignedInRoutes /> : <SignedOutRoutes />;
}
