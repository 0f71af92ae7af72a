import { useId, useState, type FormEvent } from "react";
import { EMAIL_BODY_MAX, EMAIL_SUBJECT_MAX } from "../../shared/schemas/customer-email";
import { Button } from "../components/ui/button";
import { Input } from "../components/ui/input";
import { Label } from "../components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "../components/ui/select";
import { Textarea } from "../components/ui/textarea";
import { useCurrentDealership } from "../dealerships/dealership-context";
import { fieldErrors, serverMessage } from "../lib/api";
import { toast } from "../lib/toast";
import { useLead } from "./api";
import { fetchDraft, useEmailTemplates, useSendEmail } from "./customer-email-api";

// "Write an e-mail" in the lead page's composer (issue 26, decision 228): blank, or from one of management's
// templates filled in for this lead by the server; sent through the mail queue, its entry then shows queued and sent.

const BLANK = "blank";

export function EmailComposer({ leadId }: { leadId: string }) {
  const { dealership } = useCurrentDealership();
  const lead = useLead(leadId);
  const templates = useEmailTemplates(dealership?.id);
  const send = useSendEmail(leadId);
  const [template, setTemplate] = useState(BLANK);
  const [subject, setSubject] = useState("");
  const [body, setBody] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [filling, setFilling] = useState(false);
  const ids = { template: useId(), subject: useId(), body: useId(), subjectError: useId(), bodyError: useId(), to: useId() };
  const to = lead.data?.email?.trim() ?? "";

  const choose = (value: string) => {
    setTemplate(value);
    setErrors({});
    if (value === BLANK) {
      setSubject("");
      setBody("");
      return;
    }
    setFilling(true);
    fetchDraft(leadId, value)
      .then((draft) => {
        setSubject(draft.subject);
        setBody(draft.body);
      })
      .catch((error: unknown) => toast({ title: "The template could not be used", description: serverMessage(error, "Try again."), variant: "destructive" }))
      .finally(() => setFilling(false));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing: Record<string, string> = {};
    if (!subject.trim()) missing.subject = "Write a subject.";
    if (!body.trim()) missing.body = "Write the message.";
    setErrors(missing);
    if (Object.keys(missing).length) return;
    send.mutate(
      { subject, body },
      {
        onSuccess: () => {
          setSubject("");
          setBody("");
          setTemplate(BLANK);
          toast({ title: "E-mail queued", description: `To ${to}`, variant: "success" });
        },
        onError: (error) => {
          setErrors(fieldErrors(error));
          toast({ title: "The e-mail was not sent", description: serverMessage(error, "Try again."), variant: "destructive" });
        },
      },
    );
  };

  if (lead.data && !to) {
    return <p className="text-sm text-muted-foreground">This lead has no e-mail address. Add one with Edit to write to the customer.</p>;
  }

  return (
    <form onSubmit={submit} className="grid gap-3" aria-label="Write an e-mail" noValidate>
      <p id={ids.to} className="min-w-0 break-words text-sm text-muted-foreground">
        To <span className="font-medium text-foreground">{to || "..."}</span>
      </p>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.template}>Start from</Label>
        <Select value={template} onValueChange={choose}>
          <SelectTrigger id={ids.template} className="w-full min-w-0" aria-busy={filling || undefined}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value={BLANK}>Blank e-mail</SelectItem>
            {(templates.data ?? []).map((t) => (
              <SelectItem key={t.id} value={t.id}>
                <span className="truncate">{t.name}</span>
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.subject}>Subject</Label>
        <Input
          id={ids.subject}
          value={subject}
          maxLength={EMAIL_SUBJECT_MAX}
          onChange={(e) => setSubject(e.target.value)}
          aria-invalid={Boolean(errors.subject) || undefined}
          aria-describedby={errors.subject ? ids.subjectError : undefined}
        />
        {errors.subject ? (
          <p id={ids.subjectError} className="text-sm text-destructive" role="alert">
            {errors.subject}
          </p>
        ) : null}
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.body}>Message</Label>
        <Textarea
          id={ids.body}
          value={body}
          rows={6}
          maxLength={EMAIL_BODY_MAX}
          onChange={(e) => setBody(e.target.value)}
          aria-invalid={Boolean(errors.body ?? errors.email) || undefined}
          aria-describedby={errors.body || errors.email ? ids.bodyError : undefined}
        />
        {errors.body || errors.email ? (
          <p id={ids.bodyError} className="text-sm text-destructive" role="alert">
            {errors.body ?? errors.email}
          </p>
        ) : null}
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={send.isPending || filling}>
          Send e-mail
        </Button>
      </div>
    </form>
  );
}
