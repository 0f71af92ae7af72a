import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { IMPORT_LEADS_LISTED, type LeadSnapshot } from "../../shared/events";
import type { IntakeDocument } from "../../shared/schemas/responses/intake";
import type { Db, Tx } from "../db/client";
import { dealerships } from "../db/schema/dealerships";
import { intakeCredentials, intakeDocuments } from "../db/schema/intake";
import { handOutArrivals } from "../distribution/hand-out";
import { publish } from "../events/outbox";
import { createLead, leadSnapshot } from "../leads/queries";
import { systemViewer } from "../auth/tenancy";
import { recordVehiclesOfInterest } from "./vehicles-of-interest";
import { AdfError, parseAdfDocument } from "./adf";
import type { CredentialRow } from "./credentials";

// One received ADF document, over HTTP or by mail (issue 14; decisions 132, 133): every prospect becomes a new,
// unclaimed lead through the normal path (the same insert and the same lead.created event, so the new-lead e-mails,
// notifications and live lists hear of it), all of them in one transaction or none; the prospects of one document are
// one import, e-mailed as one list (decision 174). Whatever happens, the document is kept for audit with its outcome.

/** The raw XML kept per document: enough to see what a provider sent, not a second copy of a 1 MB upload. */
export const KEPT_XML_CHARS = 64 * 1024;

export type Channel = "http" | "email";

export type ReceiveOutcome =
  /** notes: what was left out of the leads (a bad phone), or null. */
  | { accepted: true; documentId: string; leadIds: string[]; notes: string | null }
  | { accepted: false; documentId: string; error: string; credentialGone?: false }
  /** The credential was revoked or rotated after it was checked: nothing was saved (a 401 / an unknown address). */
  | { accepted: false; documentId: null; error: string; credentialGone: true };

/** What a document refused for its credential is told (decision 154). */
export const CREDENTIAL_GONE = "The intake credential was revoked or rotated";

/** Thrown inside the transaction to roll it back when the credential no longer matches. */
class CredentialGone extends Error {}

/**
 * Re-checks, inside the document's transaction, that the credential the request was let in with is still live and
 * unchanged (same secret and mailbox, not revoked, dealership in service), and holds a share lock on its row until
 * the commit (decision 154). A revoke or rotate is an UPDATE of that row, so it waits for a document already past
 * this point, and a document reaching this point after a revoke or rotate committed finds the row changed: a post is
 * accepted before the revoke or refused, never after it.
 */
async function holdCredential(tx: Tx, credential: CredentialRow): Promise<void> {
  const [live] = await tx
    .select({ id: intakeCredentials.id })
    .from(intakeCredentials)
    .innerJoin(dealerships, eq(dealerships.id, intakeCredentials.dealershipId))
    .where(
      and(
        eq(intakeCredentials.id, credential.id),
        eq(intakeCredentials.secretHash, credential.secretHash),
        eq(intakeCredentials.mailbox, credential.mailbox),
        isNull(intakeCredentials.revokedAt),
        eq(dealerships.active, true),
      ),
    )
    .for("share", { of: intakeCredentials });
  if (!live) throw new CredentialGone(CREDENTIAL_GONE);
}

async function keepDocument(
  db: Db | Tx,
  credential: CredentialRow,
  channel: Channel,
  xml: string,
  outcome: { leadsCreated: number; error: string | null; notes?: string | null },
): Promise<string> {
  const [row] = await db
    .insert(intakeDocuments)
    .values({
      dealershipId: credential.dealershipId,
      credentialId: credential.id,
      channel,
      outcome: outcome.error ? "rejected" : "accepted",
      leadsCreated: outcome.leadsCreated,
      // An accepted document's notes (what was left out of its leads) are kept where a refused one's reason is.
      // NUL cannot be stored in a text column; nothing we keep needs it (an error may quote what it refused).
      error: (outcome.error ?? outcome.notes)?.replaceAll("\u0000", "\uFFFD") ?? null,
      sizeBytes: Buffer.byteLength(xml, "utf8"),
      rawXml: xml.slice(0, KEPT_XML_CHARS).replaceAll("\u0000", "\uFFFD"),
    })
    .returning({ id: intakeDocuments.id });
  return row!.id;
}

/** Records a document refused before it could be read (too large): nothing but its size and the reason. */
export async function keepRefusedDocument(db: Db, credential: CredentialRow, channel: Channel, sizeBytes: number, error: string): Promise<void> {
  await db.insert(intakeDocuments).values({
    dealershipId: credential.dealershipId,
    credentialId: credential.id,
    channel,
    outcome: "rejected",
    leadsCreated: 0,
    error,
    sizeBytes,
    rawXml: "",
  });
}

/**
 * Each lead's lead.created; a document of several prospects is one import (decision 174): its leads carry the
 * document's id, and one leads.imported lists them, so subscribers get one "N new leads" mail instead of N.
 */
async function publishCreated(tx: Tx, credential: CredentialRow, documentId: string, created: LeadSnapshot[]): Promise<void> {
  const importId = created.length > 1 ? documentId : undefined;
  const event = { dealershipId: credential.dealershipId, actorId: null };
  for (const lead of created) await publish(tx, { ...event, type: "lead.created", payload: { lead, ...(importId ? { importId } : {}) } });
  if (!importId) return;
  const listed = created.slice(0, IMPORT_LEADS_LISTED).map(({ id, firstName, lastName, email, phone }) => ({ id, firstName, lastName, email, phone }));
  await publish(tx, { ...event, type: "leads.imported", payload: { importId, file: "adf", source: "adf", provider: credential.name, total: created.length, leads: listed } });
}

export async function receiveAdf(db: Db, credential: CredentialRow, xml: string, channel: Channel): Promise<ReceiveOutcome> {
  try {
    const prospects = parseAdfDocument(xml);
    // The intake acts for the dealership, not for a person: the system viewer (its events' actor is null).
    const viewer = systemViewer(credential.dealershipId, "intake");
    const outcome = await db.transaction(async (tx) => {
      await holdCredential(tx, credential);
      const created: LeadSnapshot[] = [];
      for (const prospect of prospects) {
        const row = await createLead(
          tx,
          viewer,
          {
            firstName: prospect.firstName,
            lastName: prospect.lastName,
            email: prospect.email,
            phone: prospect.phone,
            description: prospect.description,
            source: "adf",
            sourceProvider: prospect.provider ?? credential.name,
          },
          null,
        );
        await recordVehiclesOfInterest(tx, credential.dealershipId, row.id, prospect.vehicles);
        created.push(leadSnapshot(row));
      }
      const notes = prospects.flatMap((p) => p.dropped ?? []).join("; ") || null;
      const documentId = await keepDocument(tx, credential, channel, xml, { leadsCreated: created.length, error: null, notes });
      await publishCreated(tx, credential, documentId, created);
      // To the reps on the floor when the dealership distributes at arrival (decision 201).
      await handOutArrivals(tx, credential.dealershipId, created.map((lead) => lead.id));
      return { accepted: true as const, documentId, leadIds: created.map((lead) => lead.id), notes };
    });
    // After the commit: inside it, two documents of one credential holding their share locks would each wait for the
    // other's to update the row (a deadlock).
    await db.update(intakeCredentials).set({ lastUsedAt: sql`now()` }).where(eq(intakeCredentials.id, credential.id));
    return outcome;
  } catch (error) {
    if (error instanceof CredentialGone) return { accepted: false, documentId: null, error: error.message, credentialGone: true };
    if (!(error instanceof AdfError)) throw error;
    const documentId = await keepDocument(db, credential, channel, xml, { leadsCreated: 0, error: error.message });
    return { accepted: false, documentId, error: error.message };
  }
}

/** The Lead intake card's list: the dealership's last documents, newest first, with the credential's name. */
export async function recentDocuments(db: Db, dealershipId: string, limit: number): Promise<IntakeDocument[]> {
  const rows = await db
    .select({ doc: intakeDocuments, credentialName: intakeCredentials.name })
    .from(intakeDocuments)
    .leftJoin(intakeCredentials, eq(intakeCredentials.id, intakeDocuments.credentialId))
    .where(eq(intakeDocuments.dealershipId, dealershipId))
    .orderBy(desc(intakeDocuments.receivedAt), desc(intakeDocuments.id))
    .limit(limit);
  return rows.map(({ doc, credentialName }) => ({
    id: doc.id,
    receivedAt: doc.receivedAt.toISOString(),
    channel: doc.channel,
    outcome: doc.outcome,
    leadsCreated: doc.leadsCreated,
    error: doc.error,
    sizeBytes: doc.sizeBytes,
    credentialName,
  }));
}
