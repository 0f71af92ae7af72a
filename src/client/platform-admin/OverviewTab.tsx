import { Building2, CalendarDays, CarFront, History, Inbox, Mail, RefreshCw, ShieldCheck, Users, Wrench } from "lucide-react";
import { useState, type ReactNode } from "react";
import { relativeTime } from "../../shared/format";
import type { PlatformOverview } from "../../shared/schemas/responses/platform";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { useActivity, useMaintenance, useOverview } from "./api";
import { ConfirmDialog } from "./parts";

// The Overview tab (part 2 §2): the installation's totals, Quick Actions and Recent Activity (the real audit log,
// decision 093). A failed overview shows "—" and a Retry instead of made-up numbers (decision 042).

const stats: Array<{ key: keyof PlatformOverview; label: string; icon: typeof Building2; tone: string }> = [
  { key: "totalDealerships", label: "Total Dealerships", icon: Building2, tone: "bg-primary/10 text-primary" },
  { key: "totalUsers", label: "Total Users", icon: Users, tone: "bg-violet-100 text-violet-700" },
  { key: "totalLeads", label: "Total Leads", icon: Inbox, tone: "bg-sky-100 text-sky-700" },
  { key: "totalAppointments", label: "Total Appointments", icon: CalendarDays, tone: "bg-amber-100 text-amber-800" },
  { key: "totalTestDrives", label: "Test Drives", icon: CarFront, tone: "bg-emerald-100 text-emerald-700" },
  { key: "totalEmailsSent", label: "Total Emails Sent", icon: Mail, tone: "bg-rose-100 text-rose-700" },
];

const numberFormat = new Intl.NumberFormat("en-US");

export function OverviewTab({ onCreateDealership, onGrantAdmin }: { onCreateDealership: () => void; onGrantAdmin: () => void }) {
  const overview = useOverview();
  const [confirmMaintenance, setConfirmMaintenance] = useState(false);
  const maintenance = useMaintenance();

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

      <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card>
          <CardHeader>
            <CardTitle>Quick Actions</CardTitle>
            <CardDescription className="mt-1">Common platform tasks.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-2">
            <QuickAction icon={<Building2 />} title="Create New Dealership" text="Add a dealership and invite its admin." onClick={onCreateDealership} />
            <QuickAction icon={<ShieldCheck />} title="Grant Platform Admin" text="Give an existing user platform access." onClick={onGrantAdmin} />
            <QuickAction icon={<Wrench />} title="System Maintenance" text="Clear expired sessions, invitations and codes." onClick={() => setConfirmMaintenance(true)} />
          </CardContent>
        </Card>
        <RecentActivity />
      </div>

      <ConfirmDialog
        open={confirmMaintenance}
        title="System Maintenance"
        confirmLabel="Run Maintenance"
        destructive={false}
        pending={maintenance.isPending}
        onClose={() => setConfirmMaintenance(false)}
        onConfirm={() => maintenance.mutate(undefined, { onSettled: () => setConfirmMaintenance(false) })}
      >
        <p>
          Removes expired sessions, expired invitations, used or expired sign-up codes, old sign-in counters and events older than 30 days.
          Nobody is signed out early and nothing that is still in use is touched.
        </p>
      </ConfirmDialog>
    </div>
  );
}

function QuickAction({ icon, title, text, onClick }: { icon: ReactNode; title: string; text: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="flex w-full items-center gap-3 rounded-lg border bg-card p-3 text-left transition hover:bg-muted focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/30"
    >
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-[18px]" aria-hidden="true">
        {icon}
      </span>
      <span className="min-w-0">
        <span className="block text-sm font-semibold">{title}</span>
        <span className="block text-[13px] text-muted-foreground">{text}</span>
      </span>
    </button>
  );
}

function RecentActivity() {
  const activity = useActivity();
  const entries = activity.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent Activity</CardTitle>
        <CardDescription className="mt-1">What platform admins did, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        {activity.isPending ? (
          <div className="grid gap-3">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-10" />
            ))}
          </div>
        ) : activity.isError ? (
          <p className="text-sm text-destructive">The activity could not be loaded.</p>
        ) : entries.length === 0 ? (
          <p className="py-6 text-center text-sm text-muted-foreground">No platform activity yet.</p>
        ) : (
          <ol className="grid gap-3" aria-label="Recent activity">
            {entries.map((entry) => (
              <li key={entry.id} className="flex gap-3">
                <span className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground" aria-hidden="true">
                  <History className="size-3.5" />
                </span>
                <div className="min-w-0">
                  <p className="break-words text-sm">{entry.summary}</p>
                  <p className="text-xs text-muted-foreground">
                    {entry.actorName} · <time dateTime={entry.createdAt}>{relativeTime(entry.createdAt)}</time>
                  </p>
                </div>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}
