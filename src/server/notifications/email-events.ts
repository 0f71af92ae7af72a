import { eq } from "drizzle-orm";
import type { AppointmentSnapshot, DomainEvent, LeadSnapshot } from "../../shared/events";
import { fullName, formatPhone } from "../../shared/format";
import type { Tx } from "../db/client";
import { dealerships } from "../db/schema/dealerships";
import type { Mailer } from "../mail/mailer";
import { escapeHtml, mailLayout } from "../team/mails";
import { EMAIL_TRIGGERS, queueToEach, triggerRecipients, type EmailTriggerName } from "./email-triggers";

// The e-mails of each notification trigger (decision 034), sent from the domain events (decision 051): routes publish
// what happened; `emailOnEvent` runs once per event in the dispatcher's transaction and queues the trigger's mails.
// Nothing here holds up the request that caused the event, and building a mail costs nothing when nobody subscribed.

interface MailContext {
  tx: Tx;
  mailer: Mailer;
  appUrl: string;
}

/** Links in e-mails open through /email-redirect, which reuses an open tab (spec part 2 email-redirect). */
function appLink(appUrl: string, path: string): string {
  return `${appUrl}/email-redirect?to=${encodeURIComponent(path)}`;
}

async function dealershipName(tx: Tx, dealershipId: string): Promise<string> {
  const [row] = await tx.select({ name: dealerships.name }).from(dealerships).where(eq(dealerships.id, dealershipId)).limit(1);
  return row?.name ?? "your dealership";
}

async function send(
  context: MailContext,
  args: {
    dealershipId: string;
    trigger: EmailTriggerName;
    subject: string;
    lines: Array<[string, string | null | undefined]>;
    intro: string;
    link: { path: string; label: string };
    actorId?: string | null;
  },
): Promise<string[]> {
  // Most events have no subscriber: find that out before building anything.
  const recipients = await recipientsInDispatch(context.tx, args.dealershipId, args.trigger, args.actorId ?? null);
  if (recipients.length === 0) return [];
  const name = await dealershipName(context.tx, args.dealershipId);
  const href = appLink(context.appUrl, args.link.path);
  const triggerName = EMAIL_TRIGGERS.find((t) => t.name === args.trigger)?.displayName ?? args.trigger;
  const details = args.lines.filter((l): l is [string, string] => Boolean(l[1]));
  const text = [
    args.intro,
    "",
    ...details.map(([k, v]) => `${k}: ${v}`),
    "",
    `${args.link.label}: ${href}`,
    "",
    `You receive this because you are subscribed to "${triggerName}" e-mails at ${name}. Management can change this in the Admin Panel.`,
  ].join("\n");
  const html = mailLayout(
    args.subject,
    `<p>${escapeHtml(args.intro)}</p>
<table style="border-collapse:collapse;margin:16px 0">${details
      .map(([k, v]) => `<tr><td style="padding:4px 16px 4px 0;color:#71717a">${escapeHtml(k)}</td><td style="padding:4px 0">${escapeHtml(v)}</td></tr>`)
      .join("")}</table>
<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(args.link.label)}</a></p>
<p style="color:#71717a;font-size:13px">You receive this because you are subscribed to &ldquo;${escapeHtml(triggerName)}&rdquo; e-mails at ${escapeHtml(name)}. Management can change this in the Admin Panel.</p>`,
  );
  await queueToEach(context.tx, context.mailer, recipients, {
    dealershipId: args.dealershipId,
    trigger: args.trigger,
    subject: `${args.subject} — ${name}`,
    text,
    html,
  });
  return recipients;
}

const leadLines = (lead: LeadSnapshot): Array<[string, string | null | undefined]> => [
  ["Customer", fullName(lead)],
  ["Email", lead.email],
  ["Phone", lead.phone ? formatPhone(lead.phone) : null],
  ["Status", lead.status],
  ["Notes", lead.description],
];

const appointmentLines = (a: AppointmentSnapshot): Array<[string, string | null | undefined]> => [
  ["Appointment", a.title],
  ["Customer", fullName(a)],
  ["When", `${a.date} at ${a.time}`],
  ["Status", a.status],
  ["Email", a.email],
  ["Phone", a.phone ? formatPhone(a.phone) : null],
];

// One dispatch transaction handles a batch of events, often many of one kind in one dealership (a morning of claims):
// the subscribers are looked up once per dealership, trigger and actor within it.
const recipientsByDispatch = new WeakMap<Tx, Map<string, Promise<string[]>>>();

function recipientsInDispatch(tx: Tx, dealershipId: string, trigger: EmailTriggerName, actorId: string | null): Promise<string[]> {
  let known = recipientsByDispatch.get(tx);
  if (!known) recipientsByDispatch.set(tx, (known = new Map()));
  const key = `${dealershipId}\u0000${trigger}\u0000${actorId ?? ""}`;
  let found = known.get(key);
  if (!found) known.set(key, (found = triggerRecipients(tx, dealershipId, trigger, actorId ? [actorId] : [])));
  return found;
}

/** Queues the e-mails of one domain event (the dispatcher's once-only handler). */
export async function emailOnEvent(context: MailContext, event: DomainEvent): Promise<void> {
  const leadLink = (id: string) => ({ path: `/leads/detail/${id}`, label: "View lead" });
  const calendarLink = { path: "/calendar", label: "Open calendar" };
  const base = { dealershipId: event.dealershipId, actorId: event.actorId };
  switch (event.type) {
    case "lead.created": {
      const { lead } = event.payload;
      await send(context, {
        ...base,
        trigger: "lead_created",
        subject: `New Lead: ${fullName(lead)}`,
        intro: `A new lead was added: ${fullName(lead)}.`,
        lines: leadLines(lead),
        link: leadLink(lead.id),
      });
      return;
    }
    case "lead.claimed": {
      const { lead, claimedBy } = event.payload;
      await send(context, {
        ...base,
        trigger: "lead_claimed",
        subject: `Lead Claimed: ${fullName(lead)}`,
        intro: `${claimedBy.name} claimed the lead ${fullName(lead)}.`,
        lines: leadLines(lead),
        link: leadLink(lead.id),
      });
      return;
    }
    case "lead.status_changed": {
      const { lead } = event.payload;
      await send(context, {
        ...base,
        trigger: "lead_status_changed",
        subject: `Lead Status Changed: ${fullName(lead)}`,
        intro: `The lead ${fullName(lead)} is now ${lead.status}.`,
        lines: leadLines(lead),
        link: leadLink(lead.id),
      });
      return;
    }
    case "appointment.created": {
      const { appointment } = event.payload;
      await send(context, {
        ...base,
        trigger: "appointment_created",
        subject: `New Appointment: ${appointment.title}`,
        intro: `An appointment was scheduled with ${fullName(appointment)} on ${appointment.date} at ${appointment.time}.`,
        lines: appointmentLines(appointment),
        link: calendarLink,
      });
      return;
    }
    case "appointment.status_changed": {
      const { appointment } = event.payload;
      await send(context, {
        ...base,
        trigger: "appointment_status_changed",
        subject: `Appointment Status Changed: ${appointment.title}`,
        intro: `The appointment with ${fullName(appointment)} on ${appointment.date} at ${appointment.time} is now ${appointment.status}.`,
        lines: appointmentLines(appointment),
        link: calendarLink,
      });
      return;
    }
    case "lead.deleted":
      return; // no e-mail trigger of the spec follows a deletion
  }
}
