import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { FOLLOW_UP_RULE_LABELS, FOLLOW_UP_RULE_NAMES, type FollowUpRuleName, type FollowUpRules } from "../../shared/schemas/follow-up-rules";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { Input } from "../components/ui/input";
import { Label } from "../components/ui/label";
import { Skeleton } from "../components/ui/skeleton";
import { Switch } from "../components/ui/switch";
import { api, fieldErrors, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";

// The admin panel's automatic follow-ups (issue 27, decision 200): each rule on or off, with its time, saved together
// through PUT /api/dealerships/{id}/follow-up-rules.

const rulesKey = (dealershipId: string) => ["/api/dealerships", dealershipId, "follow-up-rules"] as const;

function RuleRow({
  name,
  rule,
  error,
  onChange,
}: {
  name: FollowUpRuleName;
  rule: FollowUpRules[FollowUpRuleName];
  error?: string;
  onChange: (rule: FollowUpRules[FollowUpRuleName]) => void;
}) {
  const ids = { switch: useId(), input: useId(), error: useId() };
  const label = FOLLOW_UP_RULE_LABELS[name];
  const isTime = "time" in rule;
  // Minutes or days: the rule's number and its words.
  const count = "minutes" in rule ? { key: "minutes" as const, label: "Minutes", max: 1440, value: rule.minutes } : "days" in rule ? { key: "days" as const, label: "Days", max: 90, value: rule.days } : null;
  return (
    <li className="grid gap-3 rounded-lg border p-4 sm:grid-cols-[1fr_auto] sm:items-center" data-testid="follow-up-rule">
      <div className="flex min-w-0 items-start gap-3">
        <Switch id={ids.switch} checked={rule.enabled} onCheckedChange={(enabled) => onChange({ ...rule, enabled })} className="mt-0.5" />
        <div className="min-w-0">
          <Label htmlFor={ids.switch} className="text-base">
            {label.title}
          </Label>
          <p className="mt-1 text-sm text-muted-foreground">{label.description}</p>
        </div>
      </div>
      <div className="grid gap-1 sm:w-40">
        <Label htmlFor={ids.input}>{count ? count.label : "Time"}</Label>
        {isTime || !count ? (
          <Input id={ids.input} type="time" value={"time" in rule ? rule.time : ""} disabled={!rule.enabled} aria-invalid={Boolean(error) || undefined} aria-describedby={error ? ids.error : undefined} onChange={(e) => onChange({ ...rule, time: e.target.value })} />
        ) : (
          <Input
            id={ids.input}
            type="number"
            inputMode="numeric"
            min={1}
            max={count.max}
            value={count.value}
            disabled={!rule.enabled}
            aria-invalid={Boolean(error) || undefined}
            aria-describedby={error ? ids.error : undefined}
            onChange={(e) => onChange({ ...rule, [count.key]: e.target.value === "" ? 0 : Number(e.target.value) })}
          />
        )}
        {error && (
          <p id={ids.error} className="text-sm text-destructive">
            {error}
          </p>
        )}
      </div>
    </li>
  );
}

export function FollowUpRulesCard({ dealershipId }: { dealershipId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery<FollowUpRules>({ queryKey: rulesKey(dealershipId) });
  // What the form shows: the edits so far, else the saved rules.
  const [edited, setEdited] = useState<FollowUpRules | null>(null);
  const draft = edited ?? query.data ?? null;
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation<FollowUpRules, Error, FollowUpRules>({
    mutationFn: (rules) => api.put<FollowUpRules>(`/api/dealerships/${dealershipId}/follow-up-rules`, rules),
    onSuccess: (rules) => {
      queryClient.setQueryData(rulesKey(dealershipId), rules);
      setEdited(null);
      setErrors({});
      toast({ title: "Follow-up rules saved", variant: "success" });
    },
    onError: (error) => {
      setErrors(fieldErrors(error));
      toast({ title: "The rules were not saved", description: serverMessage(error, "Try again."), variant: "destructive" });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft) save.mutate(draft);
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Automatic follow-ups</CardTitle>
        <p className="text-sm text-muted-foreground">Tasks the app adds for your reps when something happens to a lead. Each is made once.</p>
      </CardHeader>
      <CardContent>
        {!draft ? (
          <div aria-busy="true" className="grid gap-3">
            <Skeleton className="h-20 rounded-lg" />
            <Skeleton className="h-20 rounded-lg" />
          </div>
        ) : (
          <form onSubmit={submit} className="grid gap-4">
            <ul className="grid gap-3">
              {FOLLOW_UP_RULE_NAMES.map((name) => (
                <RuleRow
                  key={name}
                  name={name}
                  rule={draft[name]}
                  error={errors[`${name}.minutes`] ?? errors[`${name}.time`] ?? errors[`${name}.days`]}
                  onChange={(rule) => setEdited({ ...draft, [name]: rule })}
                />
              ))}
            </ul>
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                Save rules
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
