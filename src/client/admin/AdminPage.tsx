import { Inbox, Mail, ShieldAlert, Users } from "lucide-react";
import { EmptyState, PageHeader } from "../components/page-header";
import { Card } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../components/ui/tabs";
import { useCan, useCurrentDealership, useRole } from "../dealerships/dealership-context";
import { LeadIntakeCard } from "../intake/LeadIntakeCard";
import { EmailNotificationsTab } from "./EmailNotificationsTab";
import { UsersTab } from "./UsersTab";

/** /admin (part 2 §2 Admin Panel): the dealership's team and e-mail notifications, for management. */
export function AdminPage() {
  const { dealership, isLoading } = useCurrentDealership();
  const { isLoading: roleLoading } = useRole();
  const allowed = useCan("manageUsers");

  if (isLoading || roleLoading) {
    return (
      <div className="mx-auto max-w-5xl" aria-busy="true" aria-label="Loading admin panel">
        <Skeleton className="h-8 w-48" />
        <Skeleton className="mt-2 h-4 w-72" />
        <Skeleton className="mt-8 h-10 w-72" />
        <Skeleton className="mt-4 h-80 rounded-xl" />
      </div>
    );
  }

  if (!dealership || !allowed) {
    return (
      <Card className="mx-auto mt-4 max-w-xl">
        <EmptyState icon={<ShieldAlert />} title="Access Denied">
          You don't have permission to access the admin panel. Contact your administrator for access.
        </EmptyState>
      </Card>
    );
  }

  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title="Admin Panel" description={`Manage the team and e-mail notifications of ${dealership.name}.`} />
      <Tabs defaultValue="users">
        <TabsList className="w-full sm:w-fit">
          <TabsTrigger value="users" className="flex-1 sm:flex-none">
            <Users aria-hidden="true" /> Users
          </TabsTrigger>
          <TabsTrigger value="email" className="flex-1 sm:flex-none">
            <Mail aria-hidden="true" /> Email Notifications
          </TabsTrigger>
          <TabsTrigger value="intake" className="flex-1 sm:flex-none">
            <Inbox aria-hidden="true" /> Lead Intake
          </TabsTrigger>
        </TabsList>
        <TabsContent value="users" className="min-w-0">
          <UsersTab key={dealership.id} dealershipId={dealership.id} dealershipName={dealership.name} />
        </TabsContent>
        <TabsContent value="email" className="min-w-0">
          <EmailNotificationsTab key={dealership.id} dealershipId={dealership.id} />
        </TabsContent>
        <TabsContent value="intake" className="min-w-0">
          <LeadIntakeCard key={dealership.id} dealershipId={dealership.id} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
