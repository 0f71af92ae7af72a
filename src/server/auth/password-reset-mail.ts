import { PASSWORD_RESET_VALID_MINUTES } from "../../shared/schemas/profile";
import type { OutgoingMail } from "../mail/mailer";
import { escapeHtml, mailLayout } from "../mail/layout";

// The forgotten-password e-mail. The token rides in the link's #fragment: browsers never send a fragment to a
// server, so it stays out of access logs, proxies and Referer headers (decision 083).

export function passwordResetLink(appUrl: string, token: string): string {
  return `${appUrl}/reset-password#token=${token}`;
}

export function passwordResetMail(args: { appUrl: string; to: string; token: string; firstName: string | null }): OutgoingMail {
  const link = passwordResetLink(args.appUrl, args.token);
  const greeting = args.firstName ? `Hi ${args.firstName},` : "Hi,";
  const validity = `The link works once, for ${PASSWORD_RESET_VALID_MINUTES} minutes.`;
  const ignore = "If you did not ask to reset your password, ignore this e-mail: your password stays as it is.";
  const text = [greeting, "", "Someone (hopefully you) asked to reset the password of your Showroom account.", "", "Choose a new password here:", link, "", validity, ignore].join("\n");
  const html = mailLayout(
    "Reset your password",
    `<p>${escapeHtml(greeting)}</p>
<p>Someone (hopefully you) asked to reset the password of your Showroom account.</p>
<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">Choose a new password</a></p>
<p style="color:#71717a;font-size:13px">Or paste this link into your browser:<br>${escapeHtml(link)}</p>
<p style="color:#71717a;font-size:13px">${escapeHtml(validity)} ${escapeHtml(ignore)}</p>`,
  );
  return { to: args.to, subject: "Reset your Showroom password", text, html, emailType: "password_reset", dealershipId: null };
}
