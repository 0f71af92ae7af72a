import { useId, useState, type FormEvent } from "react";
import { LOST_REASON_MAX, LOST_REASONS_MAX } from "../../shared/schemas/lost-reasons";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { Label } from "../components/ui/label";
import { Skeleton } from "../components/ui/skeleton";
import { Textarea } from "../components/ui/textarea";
import { serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useLostReasons, useSaveLostReasons } from "./lost-reasons-api";

/** The admin panel's lost reasons (decision 202): one per line, in the order the Lost dialog shows them. */
export function LostReasonsCard({ dealershipId }: { dealershipId: string }) {
  const reasons = useLostReasons(dealershipId);
  const save = useSaveLostReasons(dealershipId);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ids = { input: useId(), help: useId(), error: useId() };
  const shown = text ?? reasons.data?.join("\n") ?? null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (shown === null) return;
    const list = shown
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean);
    save.mutate(list, {
      onSuccess: () => {
        setText(null);
        setError(null);
        toast({ title: "Lost reasons saved", variant: "success" });
      },
      onError: (e) => {
        setError(serverMessage(e, "The reasons were not saved."));
        toast({ title: "Lost reasons were not saved", description: serverMessage(e, "Try again."), variant: "destructive" });
      },
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Lost reasons</CardTitle>
        <p className="text-sm text-muted-foreground">Moving a lead to Lost asks for one of these. Sales Rep Analytics counts them.</p>
      </CardHeader>
      <CardContent>
        {shown === null ? (
          <Skeleton className="h-48 rounded-lg" aria-busy="true" />
        ) : (
          <form onSubmit={submit} className="grid gap-3" data-testid="lost-reasons-form">
            <Label htmlFor={ids.input}>Reasons, one per line</Label>
            <Textarea
              id={ids.input}
              rows={Math.min(12, Math.max(6, shown.split("\n").length + 1))}
              value={shown}
              onChange={(e) => setText(e.target.value)}
              aria-invalid={Boolean(error) || undefined}
              aria-describedby={error ? `${ids.help} ${ids.error}` : ids.help}
            />
            <p id={ids.help} className="text-xs text-muted-foreground">
              Up to {LOST_REASONS_MAX} reasons of at most {LOST_REASON_MAX} characters, each once. Leads already lost keep the reason they were given.
            </p>
            {error && (
              <p id={ids.error} className="text-sm text-destructive">
                {error}
              </p>
            )}
            <div className="flex justify-end">
              <Button type="submit" disabled={save.isPending}>
                Save reasons
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
