import { ROLE_LABELS, type DealershipRole } from "../../shared/constants";
import { INVITE_VALID_DAYS, VERIFICATION_CODE_VALID_MINUTES } from "../../shared/schemas/team";
import { escapeHtml, mailLayout } from "../mail/layout";
import type { OutgoingMail } from "../mail/mailer";

// The team area's e-mails, each in HTML and plain text. Everything interpolated into HTML is escaped.

function button(href: string, label: string): string {
  return `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(label)}</a></p>`;
}

/** The link in an invitation: the sign-up form with the e-mail filled in; it looks the invitation up. */
export function invitationLink(appUrl: string, email: string): string {
  const query = new URLSearchParams({ action: "register", email });
  return `${appUrl}/auth?${query.toString()}`;
}

export function invitationMail(args: {
  appUrl: string;
  to: string;
  firstName: string | null;
  dealershipName: string;
  dealershipId: string;
  role: DealershipRole;
  inviterName: string;
  expiresAt: Date;
  hasAccount: boolean;
}): OutgoingMail {
  const link = invitationLink(args.appUrl, args.to);
  const role = ROLE_LABELS[args.role];
  const greeting = args.firstName ? `Hi ${args.firstName},` : "Hi,";
  const expires = args.expiresAt.toUTCString();
  const next = args.hasAccount
    ? `You already have a Showroom account with ${args.to}. Open the link and we will e-mail you a 6-digit code; enter it with your current password and ${args.dealershipName} is added to your dealership switcher.`
    : `Open the link and we will e-mail you a 6-digit code to finish creating your account.`;
  const subject = `You're invited to join ${args.dealershipName} on Showroom`;
  const text = [
    greeting,
    "",
    `${args.inviterName} has invited you to join ${args.dealershipName} on Showroom as ${role}.`,
    "",
    next,
    "",
    link,
    "",
    `This invitation is valid for ${INVITE_VALID_DAYS} days (until ${expires}).`,
    "If you were not expecting it, you can ignore this e-mail.",
  ].join("\n");
  const html = mailLayout(
    `Join ${args.dealershipName}`,
    `<p>${escapeHtml(greeting)}</p>
<p><strong>${escapeHtml(args.inviterName)}</strong> has invited you to join <strong>${escapeHtml(args.dealershipName)}</strong> on Showroom as <strong>${escapeHtml(role)}</strong>.</p>
<p>${escapeHtml(next)}</p>
${button(link, "Accept invitation")}
<p style="color:#71717a;font-size:13px">Or paste this link into your browser:<br>${escapeHtml(link)}</p>
<p style="color:#71717a;font-size:13px">This invitation is valid for ${INVITE_VALID_DAYS} days (until ${escapeHtml(expires)}). If you were not expecting it, you can ignore this e-mail.</p>`,
  );
  return { to: args.to, subject, text, html, emailType: "invitation", dealershipId: args.dealershipId };
}

export function verificationCodeMail(args: { to: string; code: string; dealershipName: string; dealershipId: string }): OutgoingMail {
  const subject = `Your Showroom verification code: ${args.code}`;
  const text = [
    `Your verification code is ${args.code}`,
    "",
    `Enter it on the sign-up screen to finish joining ${args.dealershipName}.`,
    `The code expires in ${VERIFICATION_CODE_VALID_MINUTES} minutes and works once.`,
    "",
    "If you did not ask for it, ignore this e-mail: nobody can use it without access to your inbox.",
  ].join("\n");
  const html = mailLayout(
    "Your verification code",
    `<p>Enter this code on the sign-up screen to finish joining <strong>${escapeHtml(args.dealershipName)}</strong>:</p>
<p style="font-size:32px;font-weight:700;letter-spacing:8px;margin:24px 0;font-family:ui-monospace,Menlo,monospace">${escapeHtml(args.code)}</p>
<p style="color:#71717a;font-size:13px">The code expires in ${VERIFICATION_CODE_VALID_MINUTES} minutes and works once. If you did not ask for it, ignore this e-mail.</p>`,
  );
  return { to: args.to, subject, text, html, emailType: "email_verification", dealershipId: args.dealershipId };
}
