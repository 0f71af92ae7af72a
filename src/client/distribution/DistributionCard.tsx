import { useId, useState, type FormEvent } from "react";
import { DISTRIBUTION_MODE_LABELS, DISTRIBUTION_MODES, type DistributionSettings } from "../../shared/schemas/distribution";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { Input } from "../components/ui/input";
import { Label } from "../components/ui/label";
import { Segmented } from "../components/ui/segmented";
import { Skeleton } from "../components/ui/skeleton";
import { fieldErrors, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useAvailability, useDistribution, useSaveDistribution } from "./api";

// The admin panel's lead distribution (decision 201): the mode, at arrival or after some minutes, and who is on the
// floor now (each rep says so in the header).

type Timing = "arrival" | "after";

export function DistributionCard({ dealershipId }: { dealershipId: string }) {
  const query = useDistribution(dealershipId);
  const reps = useAvailability(dealershipId);
  const save = useSaveDistribution(dealershipId);
  const [edited, setEdited] = useState<{ mode: DistributionSettings["mode"]; timing: Timing; minutes: string } | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = { mode: useId(), minutes: useId(), error: useId() };
  const saved = query.data;
  const draft = edited ?? (saved ? { mode: saved.mode, timing: saved.autoAssignAfterMinutes === null ? ("arrival" as const) : ("after" as const), minutes: String(saved.autoAssignAfterMinutes ?? 15) } : null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    const autoAssignAfterMinutes = draft.timing === "arrival" ? null : Number(draft.minutes);
    save.mutate(
      { mode: draft.mode, autoAssignAfterMinutes },
      {
        onSuccess: () => {
          setEdited(null);
          setErrors({});
          toast({ title: "Lead distribution saved", variant: "success" });
        },
        onError: (error) => {
          setErrors(fieldErrors(error));
          toast({ title: "Lead distribution was not saved", description: serverMessage(error, "Try again."), variant: "destructive" });
        },
      },
    );
  };
  const onFloor = reps.data?.filter((r) => r.onFloor).length ?? 0;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Lead distribution</CardTitle>
        <p className="text-sm text-muted-foreground">Who gets a new lead, however it arrives (typed in, ADF or import). Only reps on the floor get leads; with nobody there, leads wait in New Leads.</p>
      </CardHeader>
      <CardContent className="grid gap-6">
        {!draft ? (
          <Skeleton className="h-40 rounded-lg" aria-busy="true" />
        ) : (
          <form onSubmit={submit} className="grid gap-4" data-testid="distribution-form">
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">Mode</legend>
              <div className="grid gap-2 sm:grid-cols-3">
                {DISTRIBUTION_MODES.map((mode) => (
                  <label key={mode} className="flex cursor-pointer gap-3 rounded-lg border p-3 has-[:checked]:border-primary has-[:checked]:bg-primary/5">
                    <input type="radio" name={ids.mode} value={mode} checked={draft.mode === mode} onChange={() => setEdited({ ...draft, mode })} className="mt-1 size-4 accent-primary" />
                    <span className="min-w-0">
                      <span className="block text-sm font-medium">{DISTRIBUTION_MODE_LABELS[mode].title}</span>
                      <span className="block text-xs text-muted-foreground">{DISTRIBUTION_MODE_LABELS[mode].description}</span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="grid gap-2 sm:grid-cols-[auto_10rem] sm:items-end">
              <div className="grid gap-2">
                <span className="text-sm font-medium" id={`${ids.mode}-timing`}>
                  When
                </span>
                <Segmented
                  label="When a lead is given out"
                  value={draft.timing}
                  onChange={(timing) => setEdited({ ...draft, timing })}
                  options={[
                    { value: "arrival", label: "At arrival" },
                    { value: "after", label: "If unclaimed" },
                  ]}
                  className="sm:w-80"
                />
              </div>
              {draft.timing === "after" && (
                <div className="grid gap-1">
                  <Label htmlFor={ids.minutes}>Minutes</Label>
                  <Input
                    id={ids.minutes}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={1440}
                    value={draft.minutes}
                    aria-invalid={Boolean(errors.autoAssignAfterMinutes) || undefined}
                    aria-describedby={errors.autoAssignAfterMinutes ? ids.error : undefined}
                    onChange={(e) => setEdited({ ...draft, minutes: e.target.value })}
                  />
                </div>
              )}
            </div>
            {errors.autoAssignAfterMinutes && (
              <p id={ids.error} className="text-sm text-destructive">
                Minutes {errors.autoAssignAfterMinutes}
              </p>
            )}
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                Save distribution
              </Button>
            </div>
          </form>
        )}
        <section aria-labelledby={`${ids.mode}-floor`} className="grid gap-2">
          <h3 id={`${ids.mode}-floor`} className="text-sm font-medium">
            On the floor now: {onFloor} of {reps.data?.length ?? 0} sales reps
          </h3>
          {reps.data && reps.data.length === 0 && <p className="text-sm text-muted-foreground">No sales reps yet: invite them in the Users tab.</p>}
          <ul className="grid gap-2 sm:grid-cols-2" data-testid="floor-list">
            {reps.data?.map((rep) => (
              <li key={rep.userId} className="flex min-w-0 items-center justify-between gap-2 rounded-lg border px-3 py-2">
                <span className="min-w-0 truncate text-sm" title={rep.name}>{rep.name}</span>
                <Badge variant={rep.onFloor ? "success" : "outline"}>{rep.onFloor ? "On the floor" : "Off the floor"}</Badge>
              </li>
            ))}
          </ul>
        </section>
      </CardContent>
    </Card>
  );
}
