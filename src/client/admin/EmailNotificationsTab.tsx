import { BellOff, Mail, Users } from "lucide-react";
import { ROLE_LABELS } from "../../shared/constants";
import { fullName } from "../../shared/format";
import type { EmailSubscription, EmailTrigger } from "../../shared/schemas/responses/email-notifications";
import type { DealershipMember } from "../../shared/schemas/responses/team";
import { EmptyState } from "../components/page-header";
import { Badge } from "../components/ui/badge";
import { Card } from "../components/ui/card";
import { Skeleton } from "../components/ui/skeleton";
import { Switch } from "../components/ui/switch";
import { cn, initialsOf } from "../lib/utils";
import { useMembers, useSetSubscription, useSubscriptions, useToggleTrigger, useTriggers } from "./api";

/** Email Notifications tab (part 2 §2, §4): one card per trigger; subscriptions show while it is active. */
export function EmailNotificationsTab({ dealershipId }: { dealershipId: string }) {
  const triggers = useTriggers(dealershipId);
  const members = useMembers(dealershipId);
  const subscriptions = useSubscriptions(dealershipId);

  if (triggers.isPending || members.isPending || subscriptions.isPending) {
    return (
      <div className="grid gap-4" role="status" aria-busy="true" aria-label="Loading email notifications">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-32 rounded-xl" />
        ))}
      </div>
    );
  }
  const list = triggers.data ?? [];
  if (list.length === 0) {
    return (
      <Card>
        <EmptyState icon={<BellOff />} title="No Email Notifications">
          No e-mail notifications are set up for this dealership yet.
        </EmptyState>
      </Card>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-4">
      <p className="text-sm text-muted-foreground">
        Choose which events send e-mail, and who receives each one. Nobody receives an e-mail until you subscribe them.
      </p>
      {list.map((trigger) => (
        <TriggerCard key={trigger.id} dealershipId={dealershipId} trigger={trigger} members={members.data ?? []} subscriptions={subscriptions.data ?? []} />
      ))}
    </div>
  );
}

function TriggerCard({
  dealershipId,
  trigger,
  members,
  subscriptions,
}: {
  dealershipId: string;
  trigger: EmailTrigger;
  members: DealershipMember[];
  subscriptions: EmailSubscription[];
}) {
  const toggle = useToggleTrigger(dealershipId);
  const subscribe = useSetSubscription(dealershipId);
  const subscribed = new Set(subscriptions.filter((s) => s.triggerId === trigger.id && s.isSubscribed).map((s) => s.userId));
  const headingId = `trigger-${trigger.id}`;

  return (
    <Card data-testid="trigger-card" aria-labelledby={headingId}>
      <div className="flex items-start gap-4 p-5 sm:p-6">
        <span
          className={cn(
            "hidden size-10 shrink-0 items-center justify-center rounded-lg sm:flex",
            trigger.isActive ? "bg-primary/10 text-primary" : "bg-muted text-muted-foreground",
          )}
          aria-hidden="true"
        >
          <Mail className="size-5" />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={headingId} className="text-base font-semibold leading-tight">
              {trigger.displayName}
            </h3>
            <Badge variant={trigger.isActive ? "success" : "secondary"}>{trigger.isActive ? "Active" : "Inactive"}</Badge>
          </div>
          {trigger.description && <p className="mt-1 text-sm text-muted-foreground">{trigger.description}</p>}
        </div>
        <Switch
          checked={trigger.isActive}
          onCheckedChange={(isActive) => toggle.mutate({ trigger, isActive })}
          aria-label={`${trigger.displayName} e-mails`}
        />
      </div>
      {trigger.isActive && (
        <div className="border-t bg-muted/20 px-5 py-4 sm:px-6">
          <div className="mb-2 flex items-center justify-between gap-2">
            <span className="text-xs font-medium uppercase tracking-wide text-muted-foreground">Recipients</span>
            {members.length > 0 && (
              <span className="text-xs text-muted-foreground">
                {subscribed.size} of {members.length} subscribed
              </span>
            )}
          </div>
          {members.length === 0 ? (
            <EmptyState icon={<Users />} title="No users found in this dealership" className="py-6">
              Invite people from the Users tab to choose who receives these e-mails.
            </EmptyState>
          ) : (
            <ul className="divide-y">
              {members.map((m) => {
                const name = fullName(m.user) || m.user.email;
                return (
                  <li key={m.userId} className="flex items-center gap-3 py-2.5">
                    <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-card text-xs font-semibold text-muted-foreground ring-1 ring-border" aria-hidden="true">
                      {initialsOf(m.user)}
                    </span>
                    <div className="min-w-0 flex-1">
                      <div className="truncate text-sm font-medium">{name}</div>
                      <div className="truncate text-xs text-muted-foreground">
                        {ROLE_LABELS[m.role]} · {m.user.email}
                      </div>
                    </div>
                    <Switch
                      checked={subscribed.has(m.userId)}
                      onCheckedChange={(isSubscribed) =>
                        subscribe.mutate({ userId: m.userId, triggerId: trigger.id, isSubscribed, name, triggerName: trigger.displayName })
                      }
                      aria-label={`Send ${trigger.displayName} e-mails to ${name}`}
                    />
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </Card>
  );
}
