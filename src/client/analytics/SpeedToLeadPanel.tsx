import { Timer } from "lucide-react";
import { useId, useState } from "react";
import { formatResponseTime, UNATTENDED_LEAD_MINUTES_MAX, UNATTENDED_LEAD_MINUTES_MIN } from "../../shared/speed-to-lead";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { Input } from "../components/ui/input";
import { Label } from "../components/ui/label";
import { Skeleton } from "../components/ui/skeleton";
import { SpeedFiguresRow } from "../dashboard/SpeedToLeadCard";
import { useSetUnattendedMinutes, useSpeedToLead } from "../leads/duplicates-api";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";

// Speed-to-lead on Sales Rep Analytics (issue 14; decisions 140-142): the dealership's figures for the page's period,
// each rep's (of the leads they answered first), and management's unattended-lead time for the e-mail.

export function SpeedToLeadPanel({ dealershipId, days }: { dealershipId: string; days: number }) {
  const query = useSpeedToLead(dealershipId, days);
  const data = query.data;
  return (
    <Card data-testid="speed-to-lead-panel">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Timer className="size-5 text-primary" aria-hidden="true" />
          Speed to Lead
        </CardTitle>
        <CardDescription>Time from a lead&apos;s arrival to its first claim, call or status change, on the dealership&apos;s clock</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {!data ? (
          <Skeleton className="h-16 w-full" />
        ) : (
          <>
            <SpeedFiguresRow figures={data.dealership} />
            {data.reps.length > 0 && (
              <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Speed to lead per rep">
                <table className="w-full min-w-[28rem] text-sm">
                  <thead className="text-left text-xs text-muted-foreground">
                    <tr>
                      <th scope="col" className="py-2 pr-3 font-medium">Rep</th>
                      <th scope="col" className="py-2 pr-3 text-right font-medium">Answered first</th>
                      <th scope="col" className="py-2 pr-3 text-right font-medium">Median</th>
                      <th scope="col" className="py-2 pr-3 text-right font-medium">Within 5 min</th>
                      <th scope="col" className="py-2 text-right font-medium">Within 15 min</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.reps.map((r) => (
                      <tr key={r.userId} className="border-t" data-testid="speed-rep">
                        <td className="py-2 pr-3">{r.name}</td>
                        <td className="py-2 pr-3 text-right tabular-nums">{r.answered}</td>
                        <td className="py-2 pr-3 text-right tabular-nums">{formatResponseTime(r.medianSeconds)}</td>
                        <td className="py-2 pr-3 text-right tabular-nums">{r.within5}</td>
                        <td className="py-2 text-right tabular-nums">{r.within15}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <UnattendedMinutes dealershipId={dealershipId} current={data.unattendedLeadMinutes} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

function UnattendedMinutes({ dealershipId, current }: { dealershipId: string; current: number }) {
  const id = useId();
  // What is typed, until saved; null shows the saved value.
  const [typed, setTyped] = useState<string | null>(null);
  const value = typed ?? String(current);
  const setValue = setTyped;
  const save = useSetUnattendedMinutes(dealershipId);
  return (
    <form
      className="grid gap-2 border-t pt-4 sm:flex sm:items-end sm:gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(Number(value), {
          onSuccess: (r) => {
            setTyped(null);
            toast({ title: "Saved", description: `Management is e-mailed about leads unanswered for ${r.unattendedLeadMinutes} minutes.`, variant: "success" });
          },
          onError: (error) => toast({ title: "Not saved", description: serverMessage(error, "Please try again."), variant: "destructive" }),
        });
      }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor={id}>E-mail about a lead unanswered after (minutes)</Label>
        <Input
          id={id}
          type="number"
          inputMode="numeric"
          min={UNATTENDED_LEAD_MINUTES_MIN}
          max={UNATTENDED_LEAD_MINUTES_MAX}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className="sm:w-32"
        />
      </div>
      <Button type="submit" variant="outline" disabled={save.isPending || value === String(current)}>
        Save
      </Button>
      <p className="text-xs text-muted-foreground sm:pb-2">Sent to the people subscribed to Unattended Leads Reminder (Admin Panel).</p>
    </form>
  );
}
