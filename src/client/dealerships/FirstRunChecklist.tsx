import { CheckCircle2, Circle, X } from "lucide-react";
import { Link } from "react-router";
import type { FirstRunStep } from "../../shared/schemas/dealership-settings";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { cn } from "../lib/utils";
import { useDismissFirstRun, useFirstRun } from "./settings-api";

// The first-run checklist on management's dashboard (issue 30, decision 192): what a new dealership still lacks, each
// step read from its records by the server, each linked to the screen that does it. Gone once every step is done or
// someone dismissed it (for the whole dealership).

const STEPS: Record<FirstRunStep, { title: string; description: string; action: string; to: string }> = {
  settings: {
    title: "Set up your dealership",
    description: "Your address and phone, the time zone and your business hours: appointment slots and follow-ups follow them.",
    action: "Open Settings",
    to: "/admin?tab=settings",
  },
  team: { title: "Invite your team", description: "Sales, front desk and managers each get an e-mail to join.", action: "Invite people", to: "/admin" },
  vehicles: { title: "Add vehicles", description: "Your inventory, ready for test drives.", action: "Add vehicles", to: "/test-drives" },
  intake: {
    title: "Connect lead intake",
    description: "Your website and the marketplaces send their leads straight into New Leads.",
    action: "Connect",
    to: "/admin?tab=intake",
  },
};

export default function FirstRunChecklist({ dealershipId }: { dealershipId: string }) {
  const query = useFirstRun(dealershipId, true);
  const dismiss = useDismissFirstRun(dealershipId);
  const firstRun = query.data;
  if (!firstRun?.show) return null;
  const done = firstRun.steps.filter((s) => s.done).length;
  const headingId = "first-run-title";

  return (
    <Card aria-labelledby={headingId} role="region" data-testid="first-run" className="mb-6">
      <CardHeader className="flex flex-row items-start justify-between gap-3">
        <div className="min-w-0">
          <CardTitle id={headingId}>Get your dealership ready</CardTitle>
          <CardDescription className="mt-1">
            {done} of {firstRun.steps.length} done. Each step is checked off as soon as it is done, by you or your team.
          </CardDescription>
        </div>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Dismiss the checklist"
          title="Dismiss the checklist"
          disabled={dismiss.isPending}
          onClick={() =>
            dismiss.mutate(undefined, {
              onError: (error) => toast({ title: "The checklist was not dismissed", description: serverMessage(error, "Try again."), variant: "destructive" }),
            })
          }
        >
          <X aria-hidden="true" />
        </Button>
      </CardHeader>
      <CardContent>
        <div className="mb-4 h-2 overflow-hidden rounded-full bg-muted" role="progressbar" aria-label="Setup progress" aria-valuemin={0} aria-valuemax={firstRun.steps.length} aria-valuenow={done}>
          <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${(done / firstRun.steps.length) * 100}%` }} />
        </div>
        <ol className="grid gap-3 md:grid-cols-2">
          {firstRun.steps.map(({ step, done: isDone }) => {
            const text = STEPS[step];
            return (
              <li key={step} data-testid={`first-run-${step}`} data-done={isDone} className={cn("flex min-w-0 gap-3 rounded-lg border p-3", isDone && "bg-muted/50")}>
                {isDone ? <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-success" /> : <Circle aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />}
                <div className="grid min-w-0 flex-1 gap-1">
                  <p className={cn("font-medium", isDone && "text-muted-foreground line-through")}>
                    {text.title}
                    <span className="sr-only">{isDone ? " (done)" : " (to do)"}</span>
                  </p>
                  <p className="text-sm text-muted-foreground">{text.description}</p>
                  {!isDone && (
                    <Button asChild variant="outline" size="sm" className="mt-1 w-fit">
                      <Link to={text.to}>{text.action}</Link>
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}
