import { Check, ListTodo, Plus } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { addDays, localToday } from "../../shared/dealership-clock";
import { TASK_TYPE_LABELS, TASK_TYPES, type TaskType } from "../../shared/schemas/task";
import { Badge } from "../components/ui/badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { Input } from "../components/ui/input";
import { Label } from "../components/ui/label";
import { Segmented } from "../components/ui/segmented";
import { Skeleton } from "../components/ui/skeleton";
import { Textarea } from "../components/ui/textarea";
import { useCurrentDealership } from "../dealerships/dealership-context";
import { fieldErrors, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useCreateTask, useLeadTasks, useUpdateTask } from "./api";

// The lead page's follow-up tasks (issue 27): what is due on this lead, done with one tap, and a short form to add
// one. The due time is typed on the dealership's clock (a datetime-local value is sent as is; the server places it in
// the dealership's zone), and it goes to the lead's rep, or else to whoever adds it.

function when(iso: string, timezone: string): string {
  const date = new Date(iso);
  // The year only when it is not this one.
  const year = date.getUTCFullYear() !== new Date().getUTCFullYear() ? { year: "numeric" as const } : {};
  return new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", ...year, hour: "numeric", minute: "2-digit", timeZone: timezone }).format(date);
}

export function LeadTasks({ leadId }: { leadId: string }) {
  const { dealership } = useCurrentDealership();
  const timezone = dealership?.timezone ?? "America/Toronto";
  const query = useLeadTasks(leadId);
  const create = useCreateTask(dealership?.id ?? "", leadId);
  const update = useUpdateTask(dealership?.id ?? "");
  const [adding, setAdding] = useState(false);
  const [type, setType] = useState<TaskType>("call");
  const [dueAt, setDueAt] = useState(() => `${addDays(localToday(timezone), 1)}T09:00`);
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = { due: useId(), note: useId(), dueError: useId() };
  const items = query.data ?? [];
  // When the list arrived: overdue is judged against that, not re-read on every render.
  const now = query.dataUpdatedAt;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    create.mutate(
      { type, dueAt, note: note.trim() || undefined },
      {
        onSuccess: () => {
          toast({ title: "Task added", variant: "success" });
          setAdding(false);
          setNote("");
        },
        onError: (error) => {
          setErrors(fieldErrors(error));
          toast({ title: "The task was not added", description: serverMessage(error, "Try again."), variant: "destructive" });
        },
      },
    );
  };

  return (
    <Card data-testid="lead-tasks">
      <CardHeader className="flex-row items-center justify-between gap-3 space-y-0">
        <CardTitle>Tasks</CardTitle>
        {!adding && (
          <Button variant="outline" size="sm" onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" />
            Add task
          </Button>
        )}
      </CardHeader>
      <CardContent className="grid gap-3">
        {adding && (
          <form onSubmit={submit} className="grid gap-3 rounded-lg border p-3" aria-label="New task">
            <Segmented label="Task type" value={type} onChange={setType} options={TASK_TYPES.map((t) => ({ value: t, label: TASK_TYPE_LABELS[t] }))} />
            <div className="grid gap-1.5">
              <Label htmlFor={ids.due}>Due</Label>
              <Input
                id={ids.due}
                type="datetime-local"
                required
                value={dueAt}
                onChange={(e) => setDueAt(e.target.value)}
                aria-invalid={Boolean(errors.dueAt) || undefined}
                aria-describedby={errors.dueAt ? ids.dueError : undefined}
              />
              {errors.dueAt && (
                <p id={ids.dueError} className="text-sm text-destructive">
                  {errors.dueAt}
                </p>
              )}
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={ids.note}>Note (optional)</Label>
              <Textarea id={ids.note} value={note} maxLength={2000} onChange={(e) => setNote(e.target.value)} className="min-h-16" />
            </div>
            <div className="flex justify-end gap-2">
              <Button type="button" variant="ghost" onClick={() => setAdding(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={create.isPending}>
                Add task
              </Button>
            </div>
          </form>
        )}
        {query.isPending ? (
          <Skeleton className="h-16 rounded-lg" aria-busy="true" />
        ) : query.isError ? (
          <p className="text-sm text-muted-foreground">Tasks could not be loaded.</p>
        ) : items.length === 0 ? (
          <div className="flex items-center gap-3 rounded-lg border border-dashed p-4 text-sm text-muted-foreground">
            <ListTodo className="size-5 shrink-0" aria-hidden="true" />
            No follow-ups for this lead yet.
          </div>
        ) : (
          <ul className="grid gap-2">
            {items.map((task) => {
              const overdue = task.status === "open" && new Date(task.dueAt).getTime() < now;
              return (
                <li key={task.id} className="rounded-lg border p-3" data-testid="lead-task">
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge variant="outline">{TASK_TYPE_LABELS[task.type]}</Badge>
                    <span className={overdue ? "text-sm font-medium text-destructive" : "text-sm font-medium"}>
                      <time dateTime={task.dueAt}>{when(task.dueAt, timezone)}</time>
                    </span>
                    {overdue && <Badge variant="destructive">Overdue</Badge>}
                    {task.status !== "open" && <Badge variant={task.status === "done" ? "success" : "secondary"}>{task.status === "done" ? "Done" : "Cancelled"}</Badge>}
                  </div>
                  {task.note && <p className="mt-1.5 break-words text-sm">{task.note}</p>}
                  <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                    <span className="min-w-0 break-words text-xs text-muted-foreground">{task.assignee ? `For ${task.assignee.name}` : "Nobody assigned"}</span>
                    {task.status === "open" && (
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={update.isPending}
                        aria-label={`Done: ${TASK_TYPE_LABELS[task.type]} ${when(task.dueAt, timezone)}`}
                        onClick={() => update.mutate({ id: task.id, change: { status: "done" } }, { onSuccess: () => toast({ title: "Task done", variant: "success" }) })}
                      >
                        <Check aria-hidden="true" />
                        Done
                      </Button>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
