import type { FastifyInstance, FastifyRequest } from "fastify";
import { createIntakeCredentialSchema, INTAKE_DOCUMENTS_SHOWN } from "../../shared/schemas/intake";
import { adfRefusalSchema, responses, type AdfReceipt, type IntakeCredentialWithSecret } from "../../shared/schemas/responses/intake";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { HttpError, notFound, unauthorized } from "../http/errors";
import { ADF_MAX_BYTES } from "./adf";
import { charsetOf, CharsetError, decodeDocument } from "./charset";
import {
  createCredential,
  credentialBySecret,
  credentialsOf,
  presentedSecret,
  revokeCredential,
  rotateCredential,
  toIntakeCredential,
  type CredentialRow,
} from "./credentials";
import { intakeDomain, replyDomain } from "../intake-config";
import { keepRefusedDocument, receiveAdf, recentDocuments } from "./receive";
import { startIntakeSmtp } from "./smtp";

// Lead intake (issue 14): the credentials management keeps in the admin panel's Lead intake card, the documents
// received, and POST /api/intake/adf where a website or provider posts ADF (decisions 131-134).

const CREDENTIAL_NOT_FOUND = "Intake credential not found";
const NO_CREDENTIAL = "Present a live intake credential: Authorization: Bearer <secret> (or HTTP Basic with it as the password)";

const MANAGE_INTAKE = "Only management can manage lead intake";

declare module "fastify" {
  interface FastifyRequest {
    intakeCredential?: CredentialRow;
  }
}

export async function intakeRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const domain = intakeDomain(app.config.intake, app.config.appUrl);

  // ADF arrives as XML; some senders label it text/plain. Read as bytes and decoded here (decision 180: BOM, the
  // Content-Type charset, the XML declaration, UTF-8), so the input guard and the route see the document's text. The
  // body limit is the document limit: a larger one is a 413 before it is read into memory. These parsers are this
  // plugin's own: the rest of the app keeps Fastify's text/plain.
  app.removeContentTypeParser("text/plain");
  app.addContentTypeParser(
    ["application/xml", "text/xml", "application/adf+xml", "text/plain"],
    { parseAs: "buffer", bodyLimit: ADF_MAX_BYTES },
    async (request: FastifyRequest, body: Buffer) => {
      try {
        return decodeDocument(body, charsetOf(request.headers["content-type"]));
      } catch (error) {
        if (!(error instanceof CharsetError)) throw error;
        // Refused before it could be read, but on the dealership's audit list like any refused document.
        if (request.intakeCredential) await keepRefusedDocument(app.db, request.intakeCredential, "http", body.length, error.message);
        throw new HttpError(400, error.message);
      }
    },
  );

  async function managing(request: FastifyRequest, dealershipId: string) {
    const access = await requireDealershipAccess(request, dealershipId);
    requireCapability(access, "managementAccess", MANAGE_INTAKE);
    return access;
  }
  const managingFirst = dealershipFirst("managementAccess", MANAGE_INTAKE);

  app.get(
    "/api/dealerships/:id/intake/credentials",
    { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/intake/credentials"]) } },
    async (request) => {
      const access = await managing(request, request.params.id);
      return (await credentialsOf(app.db, access.dealershipId)).map((row) => toIntakeCredential(row, domain));
    },
  );

  app.post(
    "/api/dealerships/:id/intake/credentials",
    { schema: { params: dealershipPath, body: createIntakeCredentialSchema, response: answers(responses["POST /api/dealerships/:id/intake/credentials"]) }, preValidation: managingFirst },
    async (request, reply) => {
      const access = await managing(request, request.params.id);
      const { name } = request.body;
      const { row, secret } = await createCredential(app.db, access.dealershipId, name, access.userId);
      const answer: IntakeCredentialWithSecret = { credential: toIntakeCredential(row, domain), secret };
      return reply.code(201).send(answer);
    },
  );

  app.post(
    "/api/dealerships/:id/intake/credentials/:credentialId/rotate",
    { schema: { params: pathOf("id", "credentialId"), response: answers(responses["POST /api/dealerships/:id/intake/credentials/:credentialId/rotate"]) } },
    async (request) => {
      const access = await managing(request, request.params.id);
      const rotated = await rotateCredential(app.db, access.dealershipId, request.params.credentialId);
      if (!rotated) throw notFound(CREDENTIAL_NOT_FOUND);
      const answer: IntakeCredentialWithSecret = { credential: toIntakeCredential(rotated.row, domain), secret: rotated.secret };
      return answer;
    },
  );

  app.delete(
    "/api/dealerships/:id/intake/credentials/:credentialId",
    { schema: { params: pathOf("id", "credentialId"), response: answers(responses["DELETE /api/dealerships/:id/intake/credentials/:credentialId"]) } },
    async (request) => {
      const access = await managing(request, request.params.id);
      const revoked = await revokeCredential(app.db, access.dealershipId, request.params.credentialId);
      if (!revoked) throw notFound(CREDENTIAL_NOT_FOUND);
      return { message: `"${revoked.name}" is revoked: documents sent with it are refused from now on.` };
    },
  );

  app.get(
    "/api/dealerships/:id/intake/documents",
    { schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/intake/documents"]) } },
    async (request) => {
      const access = await managing(request, request.params.id);
      return recentDocuments(app.db, access.dealershipId, INTAKE_DOCUMENTS_SHOWN);
    },
  );

  // The body is an XML document (or text), decoded by the parser above and read by the handler.
  app.post(
    "/api/intake/adf",
    {
      schema: { response: answers(responses["POST /api/intake/adf"], adfRefusalSchema) },
      bodyLimit: ADF_MAX_BYTES,
      // The credential is checked before the body is read: an unknown sender never makes us take 1 MB.
      onRequest: async (request) => {
        const secret = presentedSecret(request.headers.authorization);
        const credential = secret ? await credentialBySecret(app.db, secret) : undefined;
        if (!credential) throw unauthorized(NO_CREDENTIAL);
        request.intakeCredential = credential;
      },
      // Too large for the limit: refused before parsing, but still on the dealership's audit list.
      onError: async (request, _reply, error) => {
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 413 && request.intakeCredential) {
          const size = Number(request.headers["content-length"] ?? 0) || 0;
          await keepRefusedDocument(app.db, request.intakeCredential, "http", Math.min(size, 2 ** 31 - 1), "The document is larger than 1 MB");
        }
      },
    },
    async (request, reply) => {
      const credential = request.intakeCredential!;
      if (typeof request.body !== "string") {
        throw new HttpError(415, "Send the ADF document as XML (Content-Type: application/xml)");
      }
      const outcome = await receiveAdf(app.db, credential, request.body, "http");
      // Revoked or rotated between the check above and the document's transaction: refused like any dead credential.
      if (!outcome.accepted && outcome.credentialGone) throw unauthorized(NO_CREDENTIAL);
      if (!outcome.accepted) return reply.code(400).send({ message: outcome.error, documentId: outcome.documentId });
      const count = outcome.leadIds.length;
      const answer: AdfReceipt = {
        message: `${count} ${count === 1 ? "lead" : "leads"} created${outcome.notes ? `; ${outcome.notes}` : ""}`,
        documentId: outcome.documentId,
        leadIds: outcome.leadIds,
      };
      return reply.code(201).send(answer);
    },
  );

  // The optional e-mail intake (decision 134): a listener beside the HTTP server while the app runs.
  const smtpPort = app.config.intake?.smtpPort;
  if (smtpPort !== undefined) {
    let smtp: Awaited<ReturnType<typeof startIntakeSmtp>> | undefined;
    app.addHook("onReady", async () => {
      smtp = await startIntakeSmtp({
        db: app.db,
        logger: app.log,
        port: smtpPort,
        host: app.config.intake?.smtpHost ?? "0.0.0.0",
        domain,
        replyDomain: replyDomain(app.config.intake, app.config.appUrl),
      });
    });
    app.addHook("onClose", async () => {
      await smtp?.close();
    });
  }
}
