import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Building2, CalendarDays, CarFront, Inbox, Mail, RefreshCw, ShieldAlert, ShieldCheck, Users } from "lucide-react";
import { useNavigate } from "react-router";
import { PageHeader } from "../components/page-header";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { FullScreenSpinner } from "../components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../components/ui/tabs";
import { ROLE_LABELS } from "../../shared/constants";
import type { PlatformOverview } from "../../shared/schemas/responses/platform";
import { usePlatformAdminStatus } from "../auth/use-platform-admin";
import { errorStatus } from "../lib/api";
import { toast } from "../lib/toast";

// Platform administration (part 2 §2). The Overview tab; further tabs (Dealerships, Users) are added as Tabs entries.

const OVERVIEW_KEY = ["/api/platform/overview"] as const;
const OVERVIEW_RETRIES = 2;

const stats: Array<{ key: keyof PlatformOverview; label: string; icon: typeof Building2; tone: string }> = [
  { key: "totalDealerships", label: "Total Dealerships", icon: Building2, tone: "bg-primary/10 text-primary" },
  { key: "totalUsers", label: "Total Users", icon: Users, tone: "bg-violet-100 text-violet-700" },
  { key: "totalLeads", label: "Total Leads", icon: Inbox, tone: "bg-sky-100 text-sky-700" },
  { key: "totalAppointments", label: "Total Appointments", icon: CalendarDays, tone: "bg-amber-100 text-amber-800" },
  { key: "totalTestDrives", label: "Test Drives", icon: CarFront, tone: "bg-emerald-100 text-emerald-700" },
  { key: "totalEmailsSent", label: "Total Emails Sent", icon: Mail, tone: "bg-rose-100 text-rose-700" },
];

const numberFormat = new Intl.NumberFormat("en-US");

function OverviewTab() {
  const overview = useQuery<PlatformOverview>({
    queryKey: OVERVIEW_KEY,
    staleTime: 30_000,
    retry: (failureCount, error) => errorStatus(error) !== 401 && failureCount < OVERVIEW_RETRIES,
    meta: { allowUnauthorized: true },
  });

  if (overview.isError && errorStatus(overview.error) === 401) {
    return (
      <Card className="mx-auto max-w-lg">
        <CardContent className="flex flex-col items-center pt-8 text-center sm:pt-8">
          <ShieldAlert className="size-10 text-destructive" aria-hidden="true" />
          <h2 className="mt-3 text-lg font-semibold">Authentication Issue</h2>
          <p className="mt-1 text-sm text-muted-foreground">Your session could not be confirmed. Refresh the page or try loading the data again.</p>
          <div className="mt-5 flex gap-2">
            <Button variant="outline" onClick={() => window.location.reload()}>
              Refresh Page
            </Button>
            <Button onClick={() => void overview.refetch()}>Retry Loading Data</Button>
          </div>
        </CardContent>
      </Card>
    );
  }

  return (
    <div className="grid gap-4">
      {overview.isError && (
        <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm">
          <span className="text-destructive">The platform statistics could not be loaded.</span>
          <Button size="sm" variant="outline" onClick={() => void overview.refetch()}>
            <RefreshCw /> Retry
          </Button>
        </div>
      )}
      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
        {stats.map(({ key, label, icon: Icon, tone }) => (
          <Card key={key} className="p-4 sm:p-5">
            <div className="flex items-start justify-between gap-2">
              <p className="text-[13px] font-medium text-muted-foreground sm:text-sm">{label}</p>
              <span className={`hidden size-9 items-center justify-center rounded-lg sm:flex ${tone}`}>
                <Icon className="size-[18px]" aria-hidden="true" />
              </span>
            </div>
            {overview.isPending ? (
              <Skeleton className="mt-3 h-8 w-20" />
            ) : (
              <p data-testid={`stat-${key}`} className="mt-2 text-2xl font-bold tabular-nums tracking-tight sm:text-3xl">
                {overview.data ? numberFormat.format(overview.data[key]) : "—"}
              </p>
            )}
          </Card>
        ))}
      </div>
    </div>
  );
}

/** /platform-admin: platform admins see the screen; anyone else is told and sent to / (part 2 §2). */
export function PlatformAdminPage() {
  const navigate = useNavigate();
  const { isPlatformAdmin, isFetching, refetch } = usePlatformAdminStatus();
  const [checked, setChecked] = useState(false);
  const denied = useRef(false);

  // The status is fetched again whenever this page is visited.
  useEffect(() => {
    let live = true;
    void refetch().finally(() => {
      if (live) setChecked(true);
    });
    return () => {
      live = false;
    };
  }, [refetch]);

  useEffect(() => {
    if (checked && !isFetching && !isPlatformAdmin && !denied.current) {
      denied.current = true;
      toast({ title: "Access Denied: You don't have platform admin privileges", variant: "destructive" });
      navigate("/", { replace: true });
    }
  }, [checked, isFetching, isPlatformAdmin, navigate]);

  if (!isPlatformAdmin) return <FullScreenSpinner label="Checking platform admin access..." />;

  return (
    <div>
      <PageHeader
        documentTitle="Platform Administration"
        title={
          <span className="flex flex-wrap items-center gap-3">
            Platform Administration
            <Badge variant="primary" className="text-xs">
              <ShieldCheck aria-hidden="true" /> {ROLE_LABELS.superAdmin}
            </Badge>
          </span>
        }
        description="Every dealership, user and activity on Showroom at a glance."
      />
      <Tabs defaultValue="overview">
        <TabsList>
          <TabsTrigger value="overview">Overview</TabsTrigger>
        </TabsList>
        <TabsContent value="overview">
          <OverviewTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}
