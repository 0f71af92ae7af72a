import type { FastifyInstance } from "fastify";
import type { TestEmailResult } from "../../shared/schemas/responses/platform";
import { escapeHtml, mailLayout } from "../mail/layout";
import { recordAudit, type PlatformActor } from "./audit";

// POST /api/platform/test-email (part 2 §7; decision 094): a self-hoster's check that SMTP_URL works. The mail is sent
// while the admin waits, not queued, so the answer is the real outcome (the SMTP server's own error when it fails).

export async function sendTestEmail(app: FastifyInstance, to: string, actor: PlatformActor): Promise<TestEmailResult> {
  const configured = Boolean(app.config.smtpUrl);
  const text = [
    "This is a test e-mail from Showroom's platform administration.",
    "",
    configured ? "If you are reading it, outgoing mail works: invitations and notifications will arrive." : "No SMTP_URL is set, so this mail was only written to the server log.",
    "",
    `Sent to ${to} on request of ${actor.email}.`,
  ].join("\n");
  const result = await app.mailer.send({
    to,
    subject: "Showroom test e-mail",
    text,
    html: mailLayout("Test e-mail", text.split("\n").filter(Boolean).map((line) => `<p>${escapeHtml(line)}</p>`).join("")),
    emailType: "test",
  });
  const status = result.status === "failed" ? "failed" : configured ? "sent" : "logged";
  const message =
    status === "sent"
      ? `A test e-mail was sent to ${to} through the configured SMTP server.`
      : status === "logged"
        ? "No SMTP_URL is configured: the test e-mail was written to the server log instead of being sent."
        : `The SMTP server refused the test e-mail: ${result.errorMessage ?? "unknown error"}`;
  await recordAudit(app.db, actor, { action: "test_email_sent", subjectId: null, summary: `Sent a test e-mail to ${to}: ${status}` });
  return { status, to, message };
}
