import { Pencil, Trash2 } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { EMAIL_BODY_MAX, EMAIL_SUBJECT_MAX, PLACEHOLDER_LABELS, TEMPLATE_NAME_MAX, TEMPLATE_PLACEHOLDERS } from "../../shared/schemas/customer-email";
import type { EmailTemplate } from "../../shared/schemas/responses/customer-email";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { Input } from "../components/ui/input";
import { Label } from "../components/ui/label";
import { Skeleton } from "../components/ui/skeleton";
import { Textarea } from "../components/ui/textarea";
import { fieldErrors, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useCreateTemplate, useDeleteTemplate, useEmailTemplates, useUpdateTemplate } from "./customer-email-api";

// The admin panel's e-mail templates (issue 26, decision 228): management writes the dealership's templates, with
// placeholders the lead page's composer fills in for each lead.

const EMPTY = { name: "", subject: "", body: "" };

function TemplateForm({ dealershipId, editing, onDone }: { dealershipId: string; editing: EmailTemplate | null; onDone: () => void }) {
  const create = useCreateTemplate(dealershipId);
  const update = useUpdateTemplate(dealershipId);
  const [values, setValues] = useState(editing ? { name: editing.name, subject: editing.subject, body: editing.body } : EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const ids = { name: useId(), subject: useId(), body: useId(), help: useId(), error: useId() };
  const pending = create.isPending || update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const options = {
      onSuccess: () => {
        toast({ title: editing ? "Template saved" : "Template added", variant: "success" as const });
        setValues(EMPTY);
        setErrors({});
        onDone();
      },
      onError: (error: unknown) => {
        setErrors(fieldErrors(error));
        toast({ title: "The template was not saved", description: serverMessage(error, "Try again."), variant: "destructive" });
      },
    };
    if (editing) update.mutate({ id: editing.id, ...values }, options);
    else create.mutate(values, options);
  };

  const field = (key: keyof typeof EMPTY) => ({
    value: values[key],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value })),
    "aria-invalid": Boolean(errors[key]) || undefined,
    "aria-describedby": [key !== "name" ? ids.help : null, errors[key] ? `${ids.error}-${key}` : null].filter(Boolean).join(" ") || undefined,
  });
  const error = (key: keyof typeof EMPTY) =>
    errors[key] ? (
      <p id={`${ids.error}-${key}`} className="text-sm text-destructive" role="alert">
        {errors[key]}
      </p>
    ) : null;

  return (
    <form onSubmit={submit} className="grid gap-3 rounded-lg border p-4" aria-label={editing ? `Edit template ${editing.name}` : "New template"} noValidate>
      <h3 className="font-medium">{editing ? "Edit template" : "New template"}</h3>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.name}>Name</Label>
        <Input id={ids.name} maxLength={TEMPLATE_NAME_MAX} {...field("name")} />
        {error("name")}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.subject}>Subject</Label>
        <Input id={ids.subject} maxLength={EMAIL_SUBJECT_MAX} {...field("subject")} />
        {error("subject")}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.body}>Message</Label>
        <Textarea id={ids.body} rows={6} maxLength={EMAIL_BODY_MAX} {...field("body")} />
        {error("body")}
      </div>
      <div id={ids.help} className="text-sm text-muted-foreground">
        <p>Placeholders, filled in for each lead:</p>
        <ul className="mt-1 grid gap-0.5 sm:grid-cols-2">
          {TEMPLATE_PLACEHOLDERS.map((p) => (
            <li key={p} className="break-words">
              <code className="rounded bg-muted px-1 text-foreground">{`{{${p}}}`}</code> {PLACEHOLDER_LABELS[p]}
            </li>
          ))}
        </ul>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        {editing ? (
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={pending}>
          {editing ? "Save template" : "Add template"}
        </Button>
      </div>
    </form>
  );
}

function TemplateRow({ template, dealershipId, onEdit }: { template: EmailTemplate; dealershipId: string; onEdit: () => void }) {
  const remove = useDeleteTemplate(dealershipId);
  const [confirming, setConfirming] = useState(false);
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between" data-testid="email-template">
      <div className="min-w-0">
        <p className="break-words font-medium">{template.name}</p>
        <p className="break-words text-sm text-muted-foreground">{template.subject}</p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-1">
        <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Edit ${template.name}`}>
          <Pencil aria-hidden="true" /> Edit
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className={confirming ? "text-destructive" : undefined}
          disabled={remove.isPending}
          aria-label={`${confirming ? "Confirm delete" : "Delete"} ${template.name}`}
          onClick={() => {
            if (!confirming) return setConfirming(true);
            remove.mutate(template.id, {
              onSuccess: () => toast({ title: "Template deleted", variant: "success" }),
              onError: (error) => toast({ title: "The template was not deleted", description: serverMessage(error, "Try again."), variant: "destructive" }),
              onSettled: () => setConfirming(false),
            });
          }}
        >
          <Trash2 aria-hidden="true" /> {confirming ? "Confirm delete" : "Delete"}
        </Button>
      </div>
    </li>
  );
}

export function EmailTemplatesCard({ dealershipId }: { dealershipId: string }) {
  const templates = useEmailTemplates(dealershipId);
  const [editing, setEditing] = useState<EmailTemplate | null>(null);
  return (
    <Card>
      <CardHeader>
        <CardTitle>E-mail templates</CardTitle>
        <p className="text-sm text-muted-foreground">What your team starts from when they write to a customer from the lead page.</p>
      </CardHeader>
      <CardContent className="grid gap-4">
        {templates.isLoading ? (
          <Skeleton className="h-16 rounded-lg" />
        ) : templates.data?.length ? (
          <ul className="divide-y" aria-label="Templates">
            {templates.data.map((t) => (
              <TemplateRow key={t.id} template={t} dealershipId={dealershipId} onEdit={() => setEditing(t)} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No templates yet: your team writes every e-mail from a blank page.</p>
        )}
        <TemplateForm key={editing?.id ?? "new"} dealershipId={dealershipId} editing={editing} onDone={() => setEditing(null)} />
      </CardContent>
    </Card>
  );
}
