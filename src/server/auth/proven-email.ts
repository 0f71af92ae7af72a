import type { FastifyRequest } from "fastify";
import { forbidden } from "../http/errors";
import { requireUser } from "./current-user";

// What an account whose e-mail is not proven yet may not do (issue 30, decision 193): anything that makes Showroom
// send mail or traffic to addresses the account chose (inviting people, e-mailing customers, creating API tokens and
// webhooks). Everything else in its own dealership it may. A self-registered owner is such an account until they enter the code mailed at
// registration (Profile → Verify E-mail); invitees proved theirs with the invitation's code.

export const UNPROVEN_EMAIL =
  "Verify your e-mail address first: Profile → Verify E-mail sends you a 6-digit code. Until then you cannot invite people, e-mail customers or create API tokens and webhooks.";

/**
 * A route's preValidation (after the role's check): 403 for a person whose e-mail is unproven. An API token passes:
 * its account has no mailbox, and the manager who made it had proven theirs (creating one needs it).
 */
export async function provenEmailFirst(request: FastifyRequest): Promise<void> {
  const user = await requireUser(request);
  if (request.session?.sid.startsWith("api-token:")) return;
  if (!user.emailVerifiedAt) throw forbidden(UNPROVEN_EMAIL);
}
