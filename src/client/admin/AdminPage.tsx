import { FileText, Inbox, ListTodo, Mail, Plug, Settings, Shuffle, Users } from "lucide-react";
import { useSearchParams } from "react-router";
import { AccessDenied } from "../components/access-denied";
import { PageHeader } from "../components/page-header";
import { Skeleton } from "../components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../components/ui/tabs";
import { useCan, useCurrentDealership, useRole } from "../dealerships/dealership-context";
import { DealershipSettingsTab } from "../dealerships/DealershipSettingsTab";
import { DistributionCard } from "../distribution/DistributionCard";
import { LeadIntakeCard } from "../intake/LeadIntakeCard";
import { LostReasonsCard } from "../leads/LostReasonsCard";
import { ApiWebhooksTab } from "../integrations/ApiWebhooksTab";
import { EmailTemplatesCard } from "../leads/EmailTemplatesCard";
import { FollowUpRulesCard } from "../tasks/FollowUpRulesCard";
import { EmailNotificationsTab } from "./EmailNotificationsTab";
import { UsersTab } from "./UsersTab";

const TABS = ["users", "email", "templates", "intake", "leads", "follow-ups", "integrations", "settings"] as const;
type AdminTab = (typeof TABS)[number];

// Six tabs do not fit a phone's width: two columns of them there, three on a tablet, one row from lg on (issue 30).
const TAB_LIST = "grid h-auto w-full grid-cols-2 gap-1 md:grid-cols-3 lg:inline-flex lg:h-10 lg:w-fit";
const TAB = "h-9 min-w-0 justify-start px-2.5 [&_svg]:shrink-0 lg:h-full lg:justify-center lg:px-3";

/**
 * /admin (part 2 §2 Admin Panel): the dealership's team, e-mail notifications, intake, follow-ups, integrations and
 * settings, for management. `?tab=settings` opens a tab (the first-run checklist links to them); the tab chosen
 * stays in the address, so a reload or a shared link keeps it.
 */
export function AdminPage() {
  const { dealership, isLoading } = useCurrentDealership();
  const [params, setParams] = useSearchParams();
  const asked = params.get("tab");
  const tab: AdminTab = TABS.includes(asked as AdminTab) ? (asked as AdminTab) : "users";
  const { isLoading: roleLoading } = useRole();
  const allowed = useCan("manageUsers");

  if (isLoading || roleLoading) {
    return (
      <div className="mx-auto max-w-5xl" role="status" aria-busy="true" aria-label="Loading admin panel">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="mt-2 h-4 w-72" />
        <Skeleton className="mt-8 h-10 w-72" />
        <Skeleton className="mt-4 h-80 rounded-xl" />
      </div>
    );
  }

  if (!dealership || !allowed) {
    return (
      <AccessDenied>You don't have permission to access the admin panel. Contact your administrator for access.</AccessDenied>
    );
  }

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Admin Panel" description={`Manage the team, settings and connections of ${dealership.name}.`} />
      <Tabs value={tab} onValueChange={(next) => setParams(next === "users" ? {} : { tab: next }, { replace: true })}>
        <TabsList className={TAB_LIST}>
          <TabsTrigger value="users" className={TAB}>
            <Users aria-hidden="true" /> Users
          </TabsTrigger>
          <TabsTrigger value="email" className={TAB}>
            <Mail aria-hidden="true" /> Email Notifications
          </TabsTrigger>
          <TabsTrigger value="templates" className={TAB}>
            <FileText aria-hidden="true" /> E-mail Templates
          </TabsTrigger>
          <TabsTrigger value="intake" className={TAB}>
            <Inbox aria-hidden="true" /> Lead Intake
          </TabsTrigger>
          <TabsTrigger value="leads" className={TAB}>
            <Shuffle aria-hidden="true" /> Leads
          </TabsTrigger>
          <TabsTrigger value="follow-ups" className={TAB}>
            <ListTodo aria-hidden="true" /> Follow-ups
          </TabsTrigger>
          <TabsTrigger value="integrations" className={TAB}>
            <Plug aria-hidden="true" /> API &amp; Webhooks
          </TabsTrigger>
          <TabsTrigger value="settings" className={TAB}>
            <Settings aria-hidden="true" /> Settings
          </TabsTrigger>
        </TabsList>
        <TabsContent value="users" className="min-w-0">
          <UsersTab key={dealership.id} dealershipId={dealership.id} dealershipName={dealership.name} />
        </TabsContent>
        <TabsContent value="email" className="min-w-0">
          <EmailNotificationsTab key={dealership.id} dealershipId={dealership.id} />
        </TabsContent>
        <TabsContent value="templates" className="min-w-0">
          <EmailTemplatesCard key={dealership.id} dealershipId={dealership.id} />
        </TabsContent>
        <TabsContent value="intake" className="min-w-0">
          <LeadIntakeCard key={dealership.id} dealershipId={dealership.id} />
        </TabsContent>
        <TabsContent value="leads" className="grid min-w-0 gap-6">
          <DistributionCard key={dealership.id} dealershipId={dealership.id} />
          <LostReasonsCard key={`${dealership.id}-lost`} dealershipId={dealership.id} />
        </TabsContent>
        <TabsContent value="follow-ups" className="min-w-0">
          <FollowUpRulesCard key={dealership.id} dealershipId={dealership.id} />
        </TabsContent>
        <TabsContent value="integrations" className="min-w-0">
          <ApiWebhooksTab key={dealership.id} dealershipId={dealership.id} />
        </TabsContent>
        <TabsContent value="settings" className="min-w-0">
          <DealershipSettingsTab key={dealership.id} dealershipId={dealership.id} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
