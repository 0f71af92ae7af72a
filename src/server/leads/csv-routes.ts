import type { Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { csvImportQuerySchema } from "../../shared/schemas/intake";
import { leadListQuerySchema } from "../../shared/schemas/lead";
import { importRefusalSchema, responses, type ImportPreview, type ImportResult } from "../../shared/schemas/responses/intake";
import { dealershipFirst, requireCapability, requireDealershipAccess, writeInDealership } from "../auth/tenancy";
import { answers, checkedInHandler, dealershipPath, type ZodTypeProvider } from "../http/contract";
import { HttpError, badRequest } from "../http/errors";
import { exportLeadsCsv } from "./csv-export";
import { IMPORT_ERRORS_LISTED, IMPORT_SAMPLE_ROWS, checkRows, insertImportedLeads, parseMapping, readCsv } from "./csv-import";

// CSV import (preview, then commit) and export of the leads lists, for front desk and management (issue 14;
// decision 135). The upload is the request body itself (Content-Type: text/csv), read as a stream.

const IMPORT_EXPORT = "Only front desk and management can import and export leads";
/** The mapping is read leniently by the handler (a repeated or missing one is no mapping). */
const importQuery = checkedInHandler(csvImportQuerySchema);

/** The upload stream, under a symbol key: the app's body guard walks plain keys, and a socket is no body to walk. */
const UPLOAD = Symbol("csv upload");
type Upload = { [UPLOAD]: Readable };

function uploadOf(request: FastifyRequest): Readable {
  const body = request.body as Partial<Upload> | undefined;
  const stream = body?.[UPLOAD];
  if (!stream) throw new HttpError(415, "Send the file as the request body with Content-Type: text/csv");
  return stream;
}

export async function leadCsvRoutes(server: FastifyInstance): Promise<void> {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.addContentTypeParser(["text/csv", "application/csv"], (_request, payload, done) => done(null, { [UPLOAD]: payload }));

  async function importer(request: FastifyRequest) {
    const access = await requireDealershipAccess(request, (request.params as { id: string }).id);
    requireCapability(access, "importExportLeads", IMPORT_EXPORT);
    return access;
  }
  const importerFirst = dealershipFirst("importExportLeads", IMPORT_EXPORT);

  // The upload is the body as a stream (no schema: it is read as CSV by the handler).
  app.post("/api/dealerships/:id/leads/import/preview", { schema: { params: dealershipPath, querystring: importQuery, response: answers(responses["POST /api/dealerships/:id/leads/import/preview"]) } }, async (request) => {
    await importer(request);
    const table = await readCsv(uploadOf(request));
    const mapping = parseMapping(typeof request.query.mapping === "string" ? request.query.mapping : undefined, table.columns);
    const named = Object.values(mapping).includes("firstName") && Object.values(mapping).includes("lastName");
    const checked = named ? checkRows(table, mapping) : { leads: [], errors: [] };
    const answer: ImportPreview = {
      columns: table.columns,
      mapping,
      rows: table.rows.length,
      sample: checked.leads.slice(0, IMPORT_SAMPLE_ROWS),
      errors: checked.errors.slice(0, IMPORT_ERRORS_LISTED),
    };
    return answer;
  });

  app.post("/api/dealerships/:id/leads/import", { schema: { params: dealershipPath, querystring: importQuery, response: answers(responses["POST /api/dealerships/:id/leads/import"], importRefusalSchema) } }, async (request, reply) => {
    const access = await importer(request);
    const table = await readCsv(uploadOf(request));
    const mapping = parseMapping(typeof request.query.mapping === "string" ? request.query.mapping : undefined, table.columns);
    const { leads, errors } = checkRows(table, mapping);
    if (errors.length > 0) {
      // Nothing half-imported: one bad row and no row is saved; the dialog lists them (decision 135).
      const first = errors[0]!;
      const [field, message] = Object.entries(first.fields)[0] ?? ["row", "is not valid"];
      return reply.code(400).send({
        message: `${errors.length} ${errors.length === 1 ? "row has" : "rows have"} errors; nothing was imported. Row ${first.line}: ${field}: ${message}`,
        errors: errors.slice(0, 100),
      });
    }
    if (leads.length === 0) throw badRequest("The file has no rows to import", { file: "has no rows" });
    const imported = await writeInDealership(app.db, access, (tx) => insertImportedLeads(tx, access, leads));
    const answer: ImportResult = { message: `${imported} ${imported === 1 ? "lead" : "leads"} imported`, imported };
    return reply.code(201).send(answer);
  });

  // Answers text/csv: the route declares its path and query.
  app.get("/api/dealerships/:id/leads/export", { schema: { params: dealershipPath, querystring: leadListQuerySchema.omit({ limit: true, cursor: true }) }, preValidation: importerFirst }, async (request, reply) => {
    const access = await importer(request);
    const query = request.query;
    const day = new Date().toISOString().slice(0, 10);
    reply.header("content-type", "text/csv; charset=utf-8").header("content-disposition", `attachment; filename="leads-${day}.csv"`);
    return reply.send(exportLeadsCsv(app.db, access, { type: query.type, q: query.q || undefined, status: query.status, source: query.source }));
  });
}
