import type { FastifyInstance } from "fastify";
import { emailField } from "../../shared/schemas/auth";
import { invitedRegisterSchema } from "../../shared/schemas/team";
import type { UserRow } from "../auth/current-user";
import { parseInput } from "../http/errors";
import { grantListedPlatformAdmin } from "../platform/admins";
import { liveInvitationFor } from "./invites";
import { joinByInvitation } from "./verification";

/**
 * POST /api/register with an e-mail that has a pending invitation: the account joins the inviting dealership
 * with the invited role instead of creating a dealership. The e-mailed code is required, because only it proves
 * the e-mail belongs to whoever is registering (decision 032). Answers null when the e-mail is not invited, so
 * the ordinary registration goes on. The caller signs the user in (decision 168).
 */
export async function registerByInvitation(app: FastifyInstance, body: unknown, ip: string): Promise<UserRow | null> {
  const email = emailField.safeParse((body as { email?: unknown } | null)?.email);
  if (!email.success) return null;
  if (!(await liveInvitationFor(app.db, email.data))) return null;
  const input = parseInput(invitedRegisterSchema, body);
  return joinInvited(app, input, ip);
}

/**
 * Joins by invitation (both sign-up calls). The code proved the address, so the account's e-mail is now verified
 * (decision 169) and, when PLATFORM_ADMIN_EMAILS lists it, the account is a platform admin.
 */
export async function joinInvited(app: FastifyInstance, input: Parameters<typeof joinByInvitation>[1], ip: string): Promise<UserRow> {
  const user = await joinByInvitation(app.db, input, ip);
  await grantListedPlatformAdmin(app.db, app.config.platformAdminEmails, user.id);
  return user;
}
