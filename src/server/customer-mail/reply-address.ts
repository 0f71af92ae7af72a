import { and, eq, sql } from "drizzle-orm";
import { customAlphabet } from "nanoid";
import type { Db, Tx } from "../db/client";
import { leadReplyAddresses } from "../db/schema/customer-mail";

// A lead's reply address (issue 26, decision 228): reply+<token>@REPLY_DOMAIN on the intake listener. The token is 20
// random characters of 36 (about 103 bits), made at the lead's first e-mail: nobody can guess another lead's address,
// and the listener refuses an unknown one at RCPT. Lower case only, as some mail systems lower-case addresses.

const TOKEN_LENGTH = 20;
const newToken = customAlphabet("abcdefghijklmnopqrstuvwxyz0123456789", TOKEN_LENGTH);
/** The Message-ID's left part: random too, so a reply's In-Reply-To cannot be forged onto another lead. */
export const newMessageIdPart = customAlphabet("abcdefghijklmnopqrstuvwxyz0123456789", 24);

/** The one address without a token: a forward that drops "+<token>" still reaches us, threaded by In-Reply-To alone. */
export const REPLY_MAILBOX = "reply";

export function replyAddress(token: string, domain: string): string {
  return `${REPLY_MAILBOX}+${token}@${domain}`;
}

/**
 * What a recipient is to the reply listener: a lead's address (its token), the bare reply@ address (threaded by its
 * headers), or not ours (null).
 */
export function replyRecipient(address: string, domain: string): { token: string } | { bare: true } | null {
  const match = /^reply(?:\+([a-z0-9]+))?@(.+)$/i.exec(address.trim());
  if (!match || match[2]!.toLowerCase() !== domain.toLowerCase()) return null;
  return match[1] ? { token: match[1].toLowerCase() } : { bare: true };
}

/**
 * The lead's current reply token, made on its first e-mail. Concurrent first e-mails on one lead agree: the unique
 * index on the current token lets one insert win and the others read it (a statement after the winner's commit).
 */
export async function currentReplyToken(tx: Tx, lead: { id: string; dealershipId: string }): Promise<string> {
  const inserted = await tx
    .insert(leadReplyAddresses)
    .values({ token: newToken(), leadId: lead.id, dealershipId: lead.dealershipId, current: true })
    .onConflictDoNothing({ target: leadReplyAddresses.leadId, where: sql`${leadReplyAddresses.current}` })
    .returning({ token: leadReplyAddresses.token });
  if (inserted[0]) return inserted[0].token;
  const [row] = await tx
    .select({ token: leadReplyAddresses.token })
    .from(leadReplyAddresses)
    .where(and(eq(leadReplyAddresses.leadId, lead.id), eq(leadReplyAddresses.current, true)));
  if (!row) throw new Error("the lead's reply address is missing");
  return row.token;
}

/** The lead a reply token belongs to (after a merge, the kept lead), or undefined. */
export async function leadOfReplyToken(db: Db | Tx, token: string): Promise<{ leadId: string; dealershipId: string } | undefined> {
  if (token.length > 64) return undefined;
  const [row] = await db
    .select({ leadId: leadReplyAddresses.leadId, dealershipId: leadReplyAddresses.dealershipId })
    .from(leadReplyAddresses)
    .where(eq(leadReplyAddresses.token, token));
  return row;
}

/** A merge (decision 207): the merged-away lead's addresses now lead to the kept lead, which keeps its own current one. */
export async function moveReplyAddresses(tx: Tx, fromLeadId: string, toLeadId: string): Promise<string[]> {
  const moved = await tx
    .update(leadReplyAddresses)
    .set({ leadId: toLeadId, current: false })
    .where(eq(leadReplyAddresses.leadId, fromLeadId))
    .returning({ token: leadReplyAddresses.token });
  // The tokens moved: restoring the merged-away lead takes them back (decision 214).
  return moved.map((r) => r.token);
}
