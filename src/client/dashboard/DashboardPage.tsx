import { CloudOff } from "lucide-react";
import { lazy, Suspense } from "react";
import { EmptyState, PageHeader } from "../components/page-header";
import { Button } from "../components/ui/button";
import { Card } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { useCurrentDealership, useRole } from "../dealerships/dealership-context";
import { NoDealership } from "../dealerships/NoDealership";
import { PHONE_QUERY, useMediaQuery } from "../lib/use-media-query";
import { cn } from "../lib/utils";
import { sectionsFor } from "./sections";

/**
 * Today's date on the dealership's clock (issue 2: "today" is the dealership's, not the browser's), e.g.
 * "Monday, March 3". The browser's Intl does it: date-fns would add to the first screen's download (issue 12).
 */
export function todayAt(timezone: string, now = new Date()): string {
  const options: Intl.DateTimeFormatOptions = { weekday: "long", month: "long", day: "numeric" };
  try {
    return new Intl.DateTimeFormat("en-US", { ...options, timeZone: timezone }).format(now);
  } catch {
    return new Intl.DateTimeFormat("en-US", options).format(now);
  }
}

function DashboardSkeleton() {
  return (
    <div data-testid="dashboard-loading" role="status" aria-busy="true" aria-label="Loading dashboard">
      {/* The title is known before the dealership is: drawn at once, it is the first thing a phone shows (issue 12).
          Hidden from assistive technology: the real heading comes with the page, so "Dashboard" is announced once. */}
      <p aria-hidden="true" className="text-2xl font-bold tracking-tight text-foreground sm:text-[28px]">
        Dashboard
      </p>
      <Skeleton className="mt-2 h-4 w-64" />
      <div className="mt-8 grid gap-4 sm:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-28 rounded-xl" />
        ))}
      </div>
      <Skeleton className="mt-6 h-72 rounded-xl" />
    </div>
  );
}

// Management's first-run checklist (decision 192): its own chunk, fetched only for management, so a rep's first
// screen downloads nothing more.
const FirstRunChecklist = lazy(() => import("../dealerships/FirstRunChecklist"));

/** part 1 §2.3: the dashboard frame; the areas add their sections in ./sections.tsx. */
export function DashboardPage() {
  const { dealership, dealerships, isLoading, isError, retry } = useCurrentDealership();
  const { role } = useRole();
  const phone = useMediaQuery(PHONE_QUERY);

  if (isLoading) return <DashboardSkeleton />;

  if (isError && dealerships.length === 0) {
    return (
      <Card className="mx-auto mt-4 max-w-xl">
        <EmptyState icon={<CloudOff />} title="Your dealerships could not be loaded" action={<Button onClick={retry}>Try again</Button>}>
          <p>Check your connection and try again.</p>
        </EmptyState>
      </Card>
    );
  }

  if (!dealership && dealerships.length === 0) return <NoDealership />;
  if (!dealership) return <DashboardSkeleton />;

  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title="Dashboard"
        documentTitle="Dashboard"
        description={
          <>
            <span data-testid="dashboard-dealership" className="font-medium text-foreground/80">
              {dealership.name}
            </span>
            <span aria-hidden="true"> · </span>
            <span>{todayAt(dealership.timezone)}</span>
          </>
        }
      />
      {role === "management" && (
        <Suspense fallback={null}>
          <FirstRunChecklist dealershipId={dealership.id} />
        </Suspense>
      )}
      {/* Side by side (2:1) only on very wide screens; below that a table beside a panel gets too cramped. On a phone
          the order is the role's (decision 234). */}
      <div className="grid grid-cols-1 gap-6 2xl:grid-cols-3" data-testid="dashboard-sections">
        {sectionsFor(role, phone).map(({ key, Component, span = "full" }) => (
          <section key={key} data-section={key} className={cn(span === "full" && "2xl:col-span-3", span === "wide" && "2xl:col-span-2", span === "narrow" && "2xl:col-span-1")}>
            <Component dealership={dealership} role={role} />
          </section>
        ))}
      </div>
    </div>
  );
}
