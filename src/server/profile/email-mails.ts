import { ACCOUNT_EMAIL_CODE_VALID_MINUTES } from "../../shared/schemas/profile";
import type { OutgoingMail } from "../mail/mailer";
import { escapeHtml, mailLayout } from "../mail/layout";

// The profile's address mails (decision 169): the code proving the account's own address, the code proving a new
// address, and the notice to the old address once the e-mail has changed.

function greeting(firstName: string | null): string {
  return firstName ? `Hi ${firstName},` : "Hi,";
}

function codeMail(args: { to: string; code: string; firstName: string | null; subject: string; title: string; why: string }): OutgoingMail {
  const validity = `The code works once, for ${ACCOUNT_EMAIL_CODE_VALID_MINUTES} minutes.`;
  const ignore = "If you did not ask for it, ignore this e-mail: nothing changes without the code.";
  const text = [greeting(args.firstName), "", args.why, "", `Your code: ${args.code}`, "", validity, ignore].join("\n");
  const html = mailLayout(
    args.title,
    `<p>${escapeHtml(greeting(args.firstName))}</p>
<p>${escapeHtml(args.why)}</p>
<p style="font-size:32px;font-weight:700;letter-spacing:8px;margin:24px 0;font-family:ui-monospace,Menlo,monospace">${escapeHtml(args.code)}</p>
<p style="color:#71717a;font-size:13px">${escapeHtml(validity)} ${escapeHtml(ignore)}</p>`,
  );
  return { to: args.to, subject: `${args.subject}: ${args.code}`, text, html, emailType: "account_email_code", dealershipId: null };
}

/** The code that proves the account's own address: mailed at registration and on request from the profile. */
export function ownAddressCodeMail(args: { to: string; code: string; firstName: string | null }): OutgoingMail {
  return codeMail({
    ...args,
    subject: "Verify your Showroom e-mail",
    title: "Verify your e-mail",
    why: "Enter this code in Showroom (Profile → Personal Information → Verify E-mail) to confirm this address is yours.",
  });
}

/** The code that proves the new address of an e-mail change; the change happens only when it is entered. */
export function emailChangeCodeMail(args: { to: string; code: string; firstName: string | null }): OutgoingMail {
  return codeMail({
    ...args,
    subject: "Confirm your new Showroom e-mail",
    title: "Confirm your new e-mail",
    why: "Someone (hopefully you) asked to make this the e-mail of their Showroom account. Enter this code in Showroom to confirm the change.",
  });
}

/** To the OLD address, once the change is done: the person who had it learns of it, whoever made it. */
export function emailChangedNoticeMail(args: { to: string; newEmail: string; firstName: string | null }): OutgoingMail {
  const said = `The e-mail of your Showroom account was changed from ${args.to} to ${args.newEmail}. You now sign in with the new address.`;
  const notYou =
    "If you did not make this change, someone who knows your password has your account: contact your dealership's management or your Showroom administrator at once.";
  const text = [greeting(args.firstName), "", said, "", notYou].join("\n");
  const html = mailLayout(
    "Your e-mail was changed",
    `<p>${escapeHtml(greeting(args.firstName))}</p>
<p>${escapeHtml(said)}</p>
<p style="color:#71717a;font-size:13px">${escapeHtml(notYou)}</p>`,
  );
  return { to: args.to, subject: "Your Showroom e-mail was changed", text, html, emailType: "email_changed", dealershipId: null };
}
