import { eq } from "drizzle-orm";
import { APPOINTMENT_STATUS_LABELS, LEAD_STATUS_LABELS } from "../../shared/constants";
import type { AppointmentSnapshot, DomainEvent, DomainEventPayload, LeadSnapshot } from "../../shared/events";
import { fullName } from "../../shared/format";
import { formatPhone } from "../../shared/phone";
import type { Tx } from "../db/client";
import type { EventHandlers, EventOf } from "../events/dispatcher";
import { dealerships } from "../db/schema/dealerships";
import type { Mailer } from "../mail/mailer";
import { escapeHtml, mailLayout } from "../mail/layout";
import { EMAIL_TRIGGERS, queueToEach, triggerRecipients, type EmailTriggerName } from "./email-triggers";

// The e-mails of each notification trigger (decision 034), sent from the domain events (decision 051): routes publish
// what happened; `emailHandlers` run once per event in the dispatcher's transaction and queue the trigger's mails.
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
      .map(([k, v]) => `<tr><td style="padding:4px 16px 4px 0;color:#71717a">${escapeHtml(k)}</td><td style="padding:4px 0">${escapeHtml(v).replace(/\r?\n/g, "<br>")}</td></tr>`)
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
  ["Status", LEAD_STATUS_LABELS[lead.status] ?? lead.status],
  ["Notes", lead.description],
];

const appointmentLines = (a: AppointmentSnapshot): Array<[string, string | null | undefined]> => [
  ["Appointment", a.title],
  ["Customer", fullName(a)],
  ["When", `${a.date} at ${a.time}`],
  ["Status", APPOINTMENT_STATUS_LABELS[a.status]],
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

const leadLink = (id: string) => ({ path: `/leads/detail/${id}`, label: "View lead" });
const calendarLink = { path: "/calendar", label: "Open calendar" };
const by = (event: DomainEvent) => ({ dealershipId: event.dealershipId, actorId: event.actorId });

async function mailClaimed(context: MailContext, event: EventOf<"lead.claimed" | "lead.assigned">): Promise<void> {
  const { lead, claimedBy } = event.payload;
  await send(context, {
    ...by(event),
    trigger: "lead_claimed",
    subject: `Lead Claimed: ${fullName(lead)}`,
    intro: `${claimedBy.name} claimed the lead ${fullName(lead)}.`,
    lines: leadLines(lead),
    link: leadLink(lead.id),
  });
}

async function mailStatusChanged(context: MailContext, event: EventOf<"lead.status_changed" | "lead.unclaimed">): Promise<void> {
  const { lead } = event.payload;
  await send(context, {
    ...by(event),
    trigger: "lead_status_changed",
    subject: `Lead Status Changed: ${fullName(lead)}`,
    intro: `The lead ${fullName(lead)} is now ${LEAD_STATUS_LABELS[lead.status] ?? lead.status}.`,
    lines: leadLines(lead),
    link: leadLink(lead.id),
  });
}

/**
 * The e-mail subscriber's handler for each event type it mails about (registered by notifications/subscribers.ts):
 * each runs once per event in the dispatcher's transaction and queues the trigger's mails. No e-mail trigger of the
 * spec follows a deletion, a merge, an edit or the inventory.
 */
export function emailHandlers(mail: { mailer: Mailer; appUrl: string }): EventHandlers {
  const context = (tx: Tx): MailContext => ({ tx, ...mail });
  return {
    "lead.created": async (tx, event) => {
      const { lead, importId } = event.payload;
      if (importId) return; // one of an import's leads: its leads.imported mails them as one list
      await send(context(tx), {
        ...by(event),
        trigger: "lead_created",
        subject: `New Lead: ${fullName(lead)}`,
        intro: `A new lead was added: ${fullName(lead)}.`,
        lines: leadLines(lead),
        link: leadLink(lead.id),
      });
    },
    "lead.claimed": (tx, event) => mailClaimed(context(tx), event),
    "lead.assigned": (tx, event) => mailClaimed(context(tx), event),
    "lead.status_changed": (tx, event) => mailStatusChanged(context(tx), event),
    "lead.unclaimed": (tx, event) => mailStatusChanged(context(tx), event),
    "leads.imported": async (tx, event) => {
      if (event.payload.file === "csv") return; // decision 135: a CSV import mails nobody
      await sendImported(context(tx), event.dealershipId, event.payload);
    },
    "appointment.created": async (tx, event) => {
      const { appointment } = event.payload;
      await send(context(tx), {
        ...by(event),
        trigger: "appointment_created",
        subject: `New Appointment: ${appointment.title}`,
        intro: `An appointment was scheduled with ${fullName(appointment)} on ${appointment.date} at ${appointment.time}.`,
        lines: appointmentLines(appointment),
        link: calendarLink,
      });
    },
    "appointment.status_changed": async (tx, event) => {
      const { appointment } = event.payload;
      await send(context(tx), {
        ...by(event),
        trigger: "appointment_status_changed",
        subject: `Appointment Status Changed: ${appointment.title}`,
        intro: `The appointment with ${fullName(appointment)} on ${appointment.date} at ${appointment.time} is now ${APPOINTMENT_STATUS_LABELS[appointment.status]}.`,
        lines: appointmentLines(appointment),
        link: calendarLink,
      });
    },
  };
}

/**
 * The New Lead mail of an import (decision 174): one per subscriber, listing the leads (each linked) up to the
 * event's IMPORT_LEADS_LISTED, the rest counted, and a link to New Leads of that source.
 */
async function sendImported(context: MailContext, dealershipId: string, imported: DomainEventPayload<"leads.imported">): Promise<void> {
  const recipients = await recipientsInDispatch(context.tx, dealershipId, "lead_created", null);
  if (recipients.length === 0) return;
  const name = await dealershipName(context.tx, dealershipId);
  const from = imported.provider ? ` from ${imported.provider}` : "";
  const intro = `${imported.total} new leads came in together${from}.`;
  const more = imported.total - imported.leads.length;
  const leads = imported.leads.map((lead) => ({
    line: [fullName(lead), lead.email, lead.phone ? formatPhone(lead.phone) : null].filter(Boolean).join(" · "),
    href: appLink(context.appUrl, `/leads/detail/${lead.id}`),
  }));
  const listHref = appLink(context.appUrl, `/leads/new?source=${imported.source}`);
  const footer = `You receive this because you are subscribed to "New Lead" e-mails at ${name}. Management can change this in the Admin Panel.`;
  const text = [
    intro,
    "",
    ...leads.map((lead) => `- ${lead.line}: ${lead.href}`),
    ...(more > 0 ? [`…and ${more} more.`] : []),
    "",
    `Open New Leads: ${listHref}`,
    "",
    footer,
  ].join("\n");
  const html = mailLayout(
    `${imported.total} new leads`,
    `<p>${escapeHtml(intro)}</p>
<ul style="padding-left:20px;margin:16px 0">${leads.map((lead) => `<li style="margin:4px 0"><a href="${escapeHtml(lead.href)}">${escapeHtml(lead.line)}</a></li>`).join("")}</ul>
${more > 0 ? `<p style="color:#71717a">…and ${more} more.</p>` : ""}
<p style="margin:24px 0"><a href="${escapeHtml(listHref)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">Open New Leads</a></p>
<p style="color:#71717a;font-size:13px">${escapeHtml(footer)}</p>`,
  );
  await queueToEach(context.tx, context.mailer, recipients, {
    dealershipId,
    trigger: "lead_created",
    subject: `${imported.total} new leads${from} — ${name}`,
    text,
    html,
  });
}
