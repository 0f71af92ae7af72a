import { Building2, LayoutDashboard, ShieldCheck, Users } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { ROLE_LABELS } from "../../shared/constants";
import { usePlatformAdminStatus } from "../auth/use-platform-admin";
import { PageHeader } from "../components/page-header";
import { Badge } from "../components/ui/badge";
import { FullScreenSpinner } from "../components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../components/ui/tabs";
import { errorStatus } from "../lib/api";
import { toast } from "../lib/toast";
import { useOverview } from "./api";
import { DealershipsTab } from "./DealershipsTab";
import { OverviewTab } from "./OverviewTab";
import { AuthenticationIssue } from "./parts";
import { GrantAdminDialog, UsersTab } from "./UsersTab";

// Platform administration (part 2 §2): Overview, Dealerships and Users, for platform admins only.

type Tab = "overview" | "dealerships" | "users";

/** /platform-admin: platform admins see the screen; anyone else is told and sent to / (part 2 §2, §8). */
export function PlatformAdminPage() {
  const navigate = useNavigate();
  const { isPlatformAdmin, isFetching, refetch } = usePlatformAdminStatus();
  const [checked, setChecked] = useState(false);
  const denied = useRef(false);

  // The status is fetched again whenever this page is visited (part 2 §2).
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
  return <PlatformAdministration />;
}

function PlatformAdministration() {
  const overview = useOverview();
  const [tab, setTab] = useState<Tab>("overview");
  const [createOpen, setCreateOpen] = useState(false);
  const [grantOpen, setGrantOpen] = useState(false);

  const header = (
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
      description="Every dealership, user and admin of this Showroom installation."
    />
  );

  // Part 2 §8: a 401 from the overview is the "Authentication Issue" screen, not a redirect.
  if (overview.isError && errorStatus(overview.error) === 401) {
    return (
      <div>
        {header}
        <AuthenticationIssue onRetry={() => void overview.refetch()} />
      </div>
    );
  }

  return (
    <div>
      {header}
      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="overview" className="flex-1 sm:flex-none">
            <LayoutDashboard aria-hidden="true" /> Overview
          </TabsTrigger>
          <TabsTrigger value="dealerships" className="flex-1 sm:flex-none">
            <Building2 aria-hidden="true" /> Dealerships
          </TabsTrigger>
          <TabsTrigger value="users" className="flex-1 sm:flex-none">
            <Users aria-hidden="true" /> Users
          </TabsTrigger>
        </TabsList>
        <TabsContent value="overview" className="min-w-0">
          <OverviewTab
            onCreateDealership={() => {
              setTab("dealerships");
              setCreateOpen(true);
            }}
            onGrantAdmin={() => setGrantOpen(true)}
          />
        </TabsContent>
        <TabsContent value="dealerships" className="min-w-0">
          <DealershipsTab createOpen={createOpen} onCreateOpenChange={setCreateOpen} />
        </TabsContent>
        <TabsContent value="users" className="min-w-0">
          <UsersTab />
        </TabsContent>
      </Tabs>
      <GrantAdminDialog open={grantOpen} onOpenChange={setGrantOpen} />
    </div>
  );
}
