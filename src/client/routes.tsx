import type { ReactElement } from "react";
import { Navigate, Route, Routes } from "react-router";
import { useAuth } from "./auth/auth-provider";
import { AdminPage } from "./admin/AdminPage";
import { CalendarPage } from "./appointments/CalendarPage";
import { ScheduleAppointmentPage } from "./appointments/ScheduleAppointmentPage";
import { AuthPage } from "./auth/AuthPage";
import { usePlatformAdminStatus } from "./auth/use-platform-admin";
import { AppShell } from "./components/shell/app-shell";
import { PlatformAdminShell } from "./components/shell/platform-admin-shell";
import { FullScreenSpinner } from "./components/ui/spinner";
import { DashboardPage } from "./dashboard/DashboardPage";
import { DealershipProvider } from "./dealerships/dealership-context";
import { CreateLeadPage } from "./leads/CreateLeadPage";
import { LeadDetailPage } from "./leads/LeadDetailPage";
import { MyClientsPage } from "./leads/MyClientsPage";
import { NewLeadsPage } from "./leads/NewLeadsPage";
import { KnownRoutesProvider } from "./lib/known-routes";
import { NotFoundPage } from "./pages/NotFoundPage";
import { PlatformAdminPage } from "./platform-admin/PlatformAdminPage";

/*
 * ROUTE TABLE — spec part 1 §2.1 and part 2 §2. Adding a page is ONE line in the right list:
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
  { path: "/leads/new", element: <NewLeadsPage /> },
  { path: "/leads/my", element: <MyClientsPage /> },
  { path: "/leads/create", element: <CreateLeadPage /> },
  { path: "/leads/detail/:leadId", element: <LeadDetailPage /> },
  { path: "/admin", element: <AdminPage /> },
  { path: "/calendar", element: <CalendarPage /> },
  { path: "/appointments/new", element: <ScheduleAppointmentPage /> },
  // A regular user opening /platform-admin is checked, told, and sent to / (part 2 §2).
  { path: "/platform-admin", element: <PlatformAdminPage />, shell: false },
];

export const platformAdminRoutes: AppRoute[] = [{ path: "/platform-admin", element: <PlatformAdminPage /> }];

export const publicRoutes: AppRoute[] = [{ path: "/auth", element: <AuthPage /> }];

export const openRoutes: AppRoute[] = [];

const paths = (routes: AppRoute[]) => routes.map((r) => r.path);
const draw = (routes: AppRoute[]) => routes.map((r) => <Route key={r.path} path={r.path} element={r.element} />);

function SignedOutRoutes() {
  return (
    <KnownRoutesProvider patterns={[...paths(publicRoutes), ...paths(openRoutes)]}>
      <Routes>
        {draw(openRoutes)}
        {draw(publicRoutes)}
        <Route path="/" element={<Navigate to="/auth" replace />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </KnownRoutesProvider>
  );
}

function PlatformAdminRoutes() {
  return (
    <KnownRoutesProvider patterns={[...paths(platformAdminRoutes), ...paths(openRoutes)]}>
      <Routes>
        {draw(openRoutes)}
        <Route element={<PlatformAdminShell />}>{draw(platformAdminRoutes)}</Route>
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
        <Route element={<AppShell />}>{draw(userRoutes.filter((r) => r.shell !== false))}</Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </KnownRoutesProvider>
  );
}

function SignedInRoutes() {
  const { isPlatformAdmin, isLoading } = usePlatformAdminStatus();
  if (isLoading) return <FullScreenSpinner label="Loading dashboard..." />;
  return <DealershipProvider>{isPlatformAdmin ? <PlatformAdminRoutes /> : <RegularUserRoutes />}</DealershipProvider>;
}

export function AppRoutes() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <FullScreenSpinner label="Loading..." />;
  return user ? <SignedInRoutes /> : <SignedOutRoutes />;
}
