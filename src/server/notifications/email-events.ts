import type { FastifyInstance } from "fastify";
import { eq } from "drizzle-orm";
import { fullName, formatPhone } from "../../shared/format";
import { dealerships } from "../db/schema/dealerships";
import { escapeHtml, mailLayout } from "../team/mails";
import { EMAIL_TRIGGERS, notifyByEmail, type EmailTriggerName } from "./email-triggers";

// The e-mails of each notification trigger (decision 034). The leads and appointments routes call one of these
// after their write succeeded, e.g. `await emailLeadCreated(app, lead, access.user.id);`. They never throw and
// never wait for SMTP (see notifyByEmail).

interface LeadLike {
  id: string;
  dealershipId: string;
  firstName: string;
  lastName: string;
  email?: string | null;
  phone?: string | null;
  status?: string | null;
  description?: string | null;
}

interface AppointmentLike {
  id: string;
  dealershipId: string;
  title: string;
  firstName: string;
  lastName: string;
  date: string;
  time: string;
  status?: string | null;
  email?: string | null;
  phone?: string | null;
}

/** Links in e-mails open through /email-redirect, which reuses an open tab (spec part 2 email-redirect). */
function appLink(app: FastifyInstance, path: string): string {
  return `${app.config.appUrl}/email-redirect?to=${encodeURIComponent(path)}`;
}

async function dealershipName(app: FastifyInstance, dealershipId: string): Promise<string> {
  try {
    const [row] = await app.db.select({ name: dealerships.name }).from(dealerships).where(eq(dealerships.id, dealershipId)).limit(1);
    return row?.name ?? "your dealership";
  } catch {
    return "your dealership";
  }
}

async function send(
  app: FastifyInstance,
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
  const name = await dealershipName(app, args.dealershipId);
  const href = appLink(app, args.link.path);
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
  return notifyByEmail(app, {
    dealershipId: args.dealershipId,
    trigger: args.trigger,
    subject: `${args.subject} — ${name}`,
    text,
    html,
    excludeUserIds: args.actorId ? [args.actorId] : [],
  });
}

const leadLines = (lead: LeadLike): Array<[string, string | null | undefined]> => [
  ["Customer", fullName(lead)],
  ["Email", lead.email],
  ["Phone", lead.phone ? formatPhone(lead.phone) : null],
  ["Status", lead.status],
  ["Notes", lead.description],
];

const appointmentLines = (a: AppointmentLike): Array<[string, string | null | undefined]> => [
  ["Appointment", a.title],
  ["Customer", fullName(a)],
  ["When", `${a.date} at ${a.time}`],
  ["Status", a.status],
  ["Email", a.email],
  ["Phone", a.phone ? formatPhone(a.phone) : null],
];

export function emailLeadCreated(app: FastifyInstance, lead: LeadLike, actorId?: string | null) {
  return send(app, {
    dealershipId: lead.dealershipId,
    trigger: "lead_created",
    subject: `New Lead: ${fullName(lead)}`,
    intro: `A new lead was added: ${fullName(lead)}.`,
    lines: leadLines(lead),
    link: { path: `/leads/detail/${lead.id}`, label: "View lead" },
    actorId,
  });
}

export function emailLeadClaimed(app: FastifyInstance, lead: LeadLike, claimedByName: string, actorId?: string | null) {
  return send(app, {
    dealershipId: lead.dealershipId,
    trigger: "lead_claimed",
    subject: `Lead Claimed: ${fullName(lead)}`,
    intro: `${claimedByName} claimed the lead ${fullName(lead)}.`,
    lines: leadLines(lead),
    link: { path: `/leads/detail/${lead.id}`, label: "View lead" },
    actorId,
  });
}

export function emailLeadStatusChanged(app: FastifyInstance, lead: LeadLike & { status: string }, actorId?: string | null) {
  return send(app, {
    dealershipId: lead.dealershipId,
    trigger: "lead_status_changed",
    subject: `Lead Status Changed: ${fullName(lead)}`,
    intro: `The lead ${fullName(lead)} is now ${lead.status}.`,
    lines: leadLines(lead),
    link: { path: `/leads/detail/${lead.id}`, label: "View lead" },
    actorId,
  });
}

export function emailAppointmentCreated(app: FastifyInstance, appointment: AppointmentLike, actorId?: string | null) {
  return send(app, {
    dealershipId: appointment.dealershipId,
    trigger: "appointment_created",
    subject: `New Appointment: ${appointment.title}`,
    intro: `An appointment was scheduled with ${fullName(appointment)} on ${appointment.date} at ${appointment.time}.`,
    lines: appointmentLines(appointment),
    link: { path: "/calendar", label: "Open calendar" },
    actorId,
  });
}

export function emailAppointmentStatusChanged(
  app: FastifyInstance,
  appointment: AppointmentLike & { status: string },
  actorId?: string | null,
) {
  return send(app, {
    dealershipId: appointment.dealershipId,
    trigger: "appointment_status_changed",
    subject: `Appointment Status Changed: ${appointment.title}`,
    intro: `The appointment with ${fullName(appointment)} on ${appointment.date} at ${appointment.time} is now ${appointment.status}.`,
    lines: appointmentLines(appointment),
    link: { path: "/calendar", label: "Open calendar" },
    actorId,
  });
}
