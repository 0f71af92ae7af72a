import type { FastifyInstance } from "fastify";
import { emailField } from "../../shared/schemas/auth";
import { invitedRegisterSchema } from "../../shared/schemas/team";
import type { UserRow } from "../auth/current-user";
import { parseInput } from "../http/errors";
import { grantPlatformAdminByEmail } from "../platform/admins";
import { liveInvitationFor } from "./invites";
import { joinByInvitation } from "./verification";

/**
 * POST /api/register with an e-mail that has a pending invitation: the account joins the inviting dealership
 * with the invited role instead of creating a dealership. The e-mailed code is required, because only it proves
 * the e-mail belongs to whoever is registering (decision 032). Answers null when the e-mail is not invited, so
 * the ordinary registration goes on.
 */
export async function registerByInvitation(app: FastifyInstance, body: unknown, ip: string): Promise<UserRow | null> {
  const email = emailField.safeParse((body as { email?: unknown } | null)?.email);
  if (!email.success) return null;
  if (!(await liveInvitationFor(app.db, email.data))) return null;
  const input = parseInput(invitedRegisterSchema, body);
  const user = await joinByInvitation(app.db, input, ip);
  await grantIfPlatformAdmin(app, user.email);
  return user;
}

export async function grantIfPlatformAdmin(app: FastifyInstance, email: string): Promise<void> {
  if (app.config.platformAdminEmails.includes(email)) await grantPlatformAdminByEmail(app.db, email);
}
