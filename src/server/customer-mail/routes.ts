import type { FastifyInstance } from "fastify";
import { emailDraftQuerySchema, emailTemplateInputSchema, sendEmailSchema } from "../../shared/schemas/customer-email";
import { responses } from "../../shared/schemas/responses/customer-email";
import { provenEmailFirst } from "../auth/proven-email";
import { dealershipFirst, requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { answers, checkedInHandler, dealershipPath, pathOf, type ZodTypeProvider } from "../http/contract";
import { parseInput } from "../http/errors";
import { visibleLead } from "../leads/visible-lead";
import { addEmailTemplate, editEmailTemplate, removeEmailTemplate, sendCustomerEmail } from "./commands";
import { draftFor, templateOf, templatesOf } from "./templates";

// E-mail with the customer (issue 26, decision 228). Whoever may open the lead (access/leads.ts) writes to its
// customer; anyone else gets 404, as for the lead itself. Every member reads the dealership's templates (the composer
// offers them); management keeps them. Each change is a command (commands.ts).

const MANAGE_TEMPLATES = "Only management can change the e-mail templates";

export async function customerMailRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();

  app.post("/api/leads/:id/emails", {
    schema: { params: pathOf("id"), body: checkedInHandler(sendEmailSchema), response: answers(responses["POST /api/leads/:id/emails"]) },
  }, async (request, reply) => {
    const { lead, viewer } = await visibleLead(request, request.params.id);
    // The lead's 404 first, then the sender's proven address (decision 193), then the body.
    await provenEmailFirst(request);
    const input = parseInput(sendEmailSchema, request.body);
    const email = await sendCustomerEmail(app.db, viewer, lead.id, input, server);
    return reply.code(201).send(email);
  });

  app.get("/api/leads/:id/email-draft", {
    schema: { params: pathOf("id"), querystring: checkedInHandler(emailDraftQuerySchema), response: answers(responses["GET /api/leads/:id/email-draft"]) },
  }, async (request) => {
    const { lead, viewer } = await visibleLead(request, request.params.id);
    const { templateId } = parseInput(emailDraftQuerySchema, request.query);
    const template = await templateOf(app.db, lead.dealershipId, templateId);
    return draftFor(app.db, lead, viewer.userId, template);
  });

  app.get("/api/dealerships/:id/email-templates", {
    schema: { params: dealershipPath, response: answers(responses["GET /api/dealerships/:id/email-templates"]) },
  }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    return templatesOf(app.db, access.dealershipId);
  });

  // Management is checked before the body is validated (decision 190).
  const managerFirst = dealershipFirst("managementAccess", MANAGE_TEMPLATES);
  const templatePath = pathOf("id", "templateId");

  app.post("/api/dealerships/:id/email-templates", {
    schema: { params: dealershipPath, body: emailTemplateInputSchema, response: answers(responses["POST /api/dealerships/:id/email-templates"]) },
    preValidation: managerFirst,
  }, async (request, reply) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", MANAGE_TEMPLATES);
    const template = await addEmailTemplate(app.db, access, request.body);
    return reply.code(201).send(template);
  });

  app.put("/api/dealerships/:id/email-templates/:templateId", {
    schema: { params: templatePath, body: emailTemplateInputSchema, response: answers(responses["PUT /api/dealerships/:id/email-templates/:templateId"]) },
    preValidation: managerFirst,
  }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", MANAGE_TEMPLATES);
    return editEmailTemplate(app.db, access, request.params.templateId, request.body);
  });

  app.delete("/api/dealerships/:id/email-templates/:templateId", {
    schema: { params: templatePath, response: answers(responses["DELETE /api/dealerships/:id/email-templates/:templateId"]) },
    preValidation: managerFirst,
  }, async (request) => {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "managementAccess", MANAGE_TEMPLATES);
    await removeEmailTemplate(app.db, access, request.params.templateId);
    return { id: request.params.templateId };
  });
}
