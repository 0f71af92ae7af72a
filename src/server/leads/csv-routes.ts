import type { Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { leadListQuerySchema } from "../../shared/schemas/lead";
import type { ImportPreview, ImportResult } from "../../shared/schemas/responses/intake";
import { requireCapability, requireDealershipAccess } from "../auth/tenancy";
import { HttpError, badRequest, parseInput } from "../http/errors";
import { exportLeadsCsv } from "./csv-export";
import { IMPORT_ERRORS_LISTED, IMPORT_SAMPLE_ROWS, checkRows, insertImportedLeads, parseMapping, readCsv } from "./csv-import";

// CSV import (preview, then commit) and export of the leads lists, for front desk and management (issue 14;
// decision 135). The upload is the request body itself (Content-Type: text/csv), read as a stream.

type DealershipParams = { Params: { id: string } };

/** The upload stream, under a symbol key: the app's body guard walks plain keys, and a socket is no body to walk. */
const UPLOAD = Symbol("csv upload");
type Upload = { [UPLOAD]: Readable };

function uploadOf(request: FastifyRequest): Readable {
  const body = request.body as Partial<Upload> | undefined;
  const stream = body?.[UPLOAD];
  if (!stream) throw new HttpError(415, "Send the file as the request body with Content-Type: text/csv");
  return stream;
}

export async function leadCsvRoutes(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser(["text/csv", "application/csv"], (_request, payload, done) => done(null, { [UPLOAD]: payload }));

  async function importer(request: FastifyRequest<DealershipParams>) {
    const access = await requireDealershipAccess(request, request.params.id);
    requireCapability(access, "importExportLeads", "Only front desk and management can import and export leads");
    return access;
  }

  app.post<DealershipParams & { Querystring: { mapping?: string } }>("/api/dealerships/:id/leads/import/preview", async (request) => {
    await importer(request);
    const table = await readCsv(uploadOf(request));
    const mapping = parseMapping(typeof request.query.mapping === "string" ? request.query.mapping : undefined, table.columns);
    const named = Object.values(mapping).includes("firstName") && Object.values(mapping).includes("lastName");
    const checked = named ? checkRows(table, mapping) : { leads: [], errors: [] };
    const answer: ImportPreview = {
      columns: table.columns,
      mapping,
      rows: table.rows.length,
      sample: checked.leads.slice(0, IMPORT_SAMPLE_ROWS).map((lead) => ({ ...lead, source: "import" as const })),
      errors: checked.errors.slice(0, IMPORT_ERRORS_LISTED),
    };
    return answer;
  });

  app.post<DealershipParams & { Querystring: { mapping?: string } }>("/api/dealerships/:id/leads/import", async (request, reply) => {
    const access = await importer(request);
    const table = await readCsv(uploadOf(request));
    const mapping = parseMapping(typeof request.query.mapping === "string" ? request.query.mapping : undefined, table.columns);
    const { leads, errors } = checkRows(table, mapping);
    if (errors.length > 0) {
      // Nothing half-imported: one bad row and no row is saved; the dialog lists them (decision 135).
      const first = errors[0]!;
      const [field, message] = Object.entries(first.fields)[0] ?? ["row", "is not valid"];
      return reply.code(400).send({
        message: `${errors.length} ${errors.length === 1 ? "row has" : "rows have"} errors; nothing was imported. Line ${first.line}: ${field}: ${message}`,
        errors: errors.slice(0, 100),
      });
    }
    if (leads.length === 0) throw badRequest("The file has no rows to import", { file: "has no rows" });
    const imported = await app.db.transaction((tx) => insertImportedLeads(tx, access.dealershipId, leads));
    const answer: ImportResult = { message: `${imported} ${imported === 1 ? "lead" : "leads"} imported`, imported };
    return reply.code(201).send(answer);
  });

  app.get<DealershipParams & { Querystring: Record<string, string> }>("/api/dealerships/:id/leads/export", async (request, reply) => {
    const access = await importer(request);
    const query = parseInput(leadListQuerySchema.omit({ limit: true, cursor: true }), request.query);
    const day = new Date().toISOString().slice(0, 10);
    reply.header("content-type", "text/csv; charset=utf-8").header("content-disposition", `attachment; filename="leads-${day}.csv"`);
    return reply.send(exportLeadsCsv(app.db, access, { type: query.type, q: query.q || undefined, status: query.status, source: query.source }));
  });
}
