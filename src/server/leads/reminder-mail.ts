import { fullName, relativeTime } from "../../shared/format";
import { formatPhone } from "../../shared/phone";
import type { OutgoingMail } from "../mail/mailer";
import { escapeHtml, mailLayout } from "../mail/layout";

// The Send Reminder e-mail (part 1 §2.4): the leads still waiting to be claimed, oldest first, with a link to New Leads.

/** At most this many leads are listed in one reminder; the rest are counted. */
export const REMINDER_LEADS_LISTED = 25;

export interface ReminderLead {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  createdAt: Date;
}

export function reminderMail(args: {
  to: string;
  repFirstName: string | null;
  dealershipName: string;
  dealershipId: string;
  sentByName: string;
  total: number;
  leads: ReminderLead[];
  link: string;
  now?: Date;
}): OutgoingMail {
  const plural = args.total === 1 ? "lead is" : "leads are";
  const subject = `Reminder: ${args.total} new ${plural} waiting to be claimed — ${args.dealershipName}`;
  const greeting = args.repFirstName ? `Hi ${args.repFirstName},` : "Hi,";
  const intro = `${args.sentByName} sent a reminder: ${args.total} new ${plural} waiting to be claimed at ${args.dealershipName}.`;
  const more = args.total - args.leads.length;
  const waited = (l: ReminderLead) => {
    const ago = relativeTime(l.createdAt, args.now);
    return ago === "Just now" ? "just added" : `waiting ${ago.replace(/ ago$/, "")}`;
  };
  const line = (l: ReminderLead) => [fullName(l), l.email, l.phone ? formatPhone(l.phone) : null, waited(l)].filter(Boolean).join(" · ");
  const text = [
    greeting,
    "",
    intro,
    "",
    ...args.leads.map((l) => `- ${line(l)}`),
    ...(more > 0 ? [`…and ${more} more.`] : []),
    "",
    `Claim a lead: ${args.link}`,
  ].join("\n");
  const html = mailLayout(
    "New leads are waiting",
    `<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<ul style="padding-left:20px;margin:16px 0">${args.leads.map((l) => `<li style="margin:4px 0">${escapeHtml(line(l))}</li>`).join("")}</ul>
${more > 0 ? `<p style="color:#71717a">…and ${more} more.</p>` : ""}
<p style="margin:24px 0"><a href="${escapeHtml(args.link)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">Claim a lead</a></p>`,
  );
  return { to: args.to, subject, text, html, emailType: "lead_reminder", dealershipId: args.dealershipId, notification: true };
}
