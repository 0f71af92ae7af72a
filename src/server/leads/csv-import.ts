import type { Readable } from "node:stream";
import { parse } from "csv-parse";
import { nanoid } from "nanoid";
import { z } from "zod";
import { LEAD_SOURCES, LEAD_SOURCE_LABELS, type LeadSource } from "../../shared/lead-source";
import { LEAD_NAME_MAX } from "../../shared/schemas/lead";
import { createLeadSchema } from "../../shared/schemas/lead";
import { linkImportedDuplicates } from "./duplicates";
import type { ImportLeadField, ImportPreview } from "../../shared/schemas/responses/intake";
import { IMPORT_LEADS_LISTED } from "../../shared/events";
import { actorIdOf, type Viewer } from "../auth/tenancy";
import type { Tx } from "../db/client";
import { handOutArrivals } from "../distribution/hand-out";
import { publish } from "../events/outbox";
import { recordImportedLeads } from "./activity";
import { leads } from "../db/schema/leads";
import { HttpError, badRequest } from "../http/errors";
import { restoreFormula } from "./csv-export";
import { decodeCsv, detectDelimiter } from "./csv-decode";

// Importing leads from a CSV file (issue 14; decision 135): streamed through csv-parse with a size and a row cap, the
// columns mapped to lead fields (guessed from the header, or chosen in the dialog), every row checked with the same
// schema as the Create Lead form, and then all rows saved in one transaction or none.

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;
export const IMPORT_SAMPLE_ROWS = 5;
/** Per-row errors listed at most (the count says how many rows failed in all). */
export const IMPORT_ERRORS_LISTED = 100;

export const IMPORT_FIELDS: readonly ImportLeadField[] = ["firstName", "lastName", "email", "phone", "description", "source"];

export interface CsvTable {
  columns: string[];
  rows: Array<{ line: number; cells: string[] }>;
}

/**
 * Reads the upload into memory (the cap keeps it small). Past the cap it answers a 413 at once and lets the rest of
 * the body drain unread, so the connection stays usable for the answer.
 */
function readCapped(upload: Readable, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let seen = 0;
    upload.on("data", (chunk: Buffer) => {
      if (seen > max) return;
      seen += chunk.length;
      if (seen > max) {
        chunks.length = 0;
        reject(new HttpError(413, `The file is larger than ${max / 1024 / 1024} MB`));
      } else chunks.push(chunk);
    });
    upload.on("end", () => resolve(Buffer.concat(chunks)));
    upload.on("error", reject);
  });
}

/**
 * Reads a CSV upload: the header row and every data row with its row number as a spreadsheet shows it. The bytes are
 * decoded first (BOM, UTF-8, else Windows-1252) and the separator is the header's (comma, semicolon or tab), since
 * the encoding can only be known from the whole file (decision 182).
 */
export async function readCsv(upload: Readable, limits = { maxBytes: IMPORT_MAX_BYTES, maxRows: IMPORT_MAX_ROWS }): Promise<CsvTable> {
  const { text } = decodeCsv(await readCapped(upload, limits.maxBytes));
  const parser = parse(text, {
    delimiter: detectDelimiter(text),
    info: true,
    relax_column_count: true,
    // A quote inside an unquoted cell (Wants 20" wheels) is a character of the cell, as spreadsheets read it.
    relax_quotes: true,
    trim: true,
    max_record_size: 64 * 1024,
  });
  let columns: string[] | null = null;
  const rows: CsvTable["rows"] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { records: number } }>) {
      if (!columns) {
        columns = record.map((c, i) => c || `Column ${i + 1}`);
        continue;
      }
      // An empty line is a row in a spreadsheet too: it is counted (the row numbers stay the spreadsheet's) and skipped.
      if (record.every((cell) => cell === "")) continue;
      if (rows.length >= limits.maxRows) throw new HttpError(413, `At most ${limits.maxRows} rows can be imported at once`);
      // The row number a spreadsheet shows: the header is row 1, and a cell with line breaks is still one row.
      rows.push({ line: info.records, cells: record.map(restoreFormula) });
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    throw badRequest(`The file is not valid CSV: ${(error as Error).message}`, { file: "is not valid CSV" });
  }
  if (!columns) throw badRequest("The file is empty: the first row names the columns", { file: "is empty" });
  return { columns, rows };
}

const HEADER_WORDS: Record<ImportLeadField, string[]> = {
  firstName: ["firstname", "first", "givenname", "fname", "forename"],
  lastName: ["lastname", "last", "surname", "familyname", "lname"],
  email: ["email", "emailaddress", "mail"],
  phone: ["phone", "phonenumber", "telephone", "tel", "mobile", "cell", "cellphone"],
  description: ["description", "notes", "note", "comments", "comment"],
  source: ["source", "leadsource"],
};

/** The mapping a header suggests: "First Name", "E-mail", "Phone Number" ... (each field once, first column wins). */
export function guessMapping(columns: string[]): Record<string, ImportLeadField | null> {
  const mapping: Record<string, ImportLeadField | null> = Object.create(null) as Record<string, ImportLeadField | null>;
  const taken = new Set<ImportLeadField>();
  for (const column of columns) {
    const word = column.toLowerCase().replace(/[^a-z]/g, "");
    const field = IMPORT_FIELDS.find((f) => !taken.has(f) && HEADER_WORDS[f].includes(word)) ?? null;
    if (field) taken.add(field);
    mapping[column] = field;
  }
  return mapping;
}

const mappingSchema = z.record(z.string().max(200), z.enum(IMPORT_FIELDS as [ImportLeadField, ...ImportLeadField[]]).nullable());

/** The mapping the dialog sends (JSON in ?mapping=): known columns, each field at most once, both names mapped. */
export function parseMapping(text: string | undefined, columns: string[]): Record<string, ImportLeadField | null> {
  if (!text) return guessMapping(columns);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badRequest("mapping: must be a JSON object of column to field", { mapping: "must be a JSON object of column to field" });
  }
  const parsed = mappingSchema.safeParse(raw);
  if (!parsed.success) throw badRequest(`mapping: fields are ${IMPORT_FIELDS.join(", ")} or null`, { mapping: `fields are ${IMPORT_FIELDS.join(", ")} or null` });
  const mapping = Object.assign(Object.create(null) as Record<string, ImportLeadField | null>, parsed.data);
  const unknown = Object.keys(mapping).filter((c) => !columns.includes(c));
  if (unknown.length) throw badRequest(`mapping: the file has no column "${unknown[0]}"`, { mapping: `the file has no column "${unknown[0]}"` });
  const used = Object.values(mapping).filter((f): f is ImportLeadField => f !== null);
  const twice = used.find((f, i) => used.indexOf(f) !== i);
  if (twice) throw badRequest(`mapping: ${twice} is mapped from two columns`, { mapping: `${twice} is mapped from two columns` });
  return mapping;
}

const rowSchema = createLeadSchema.pick({ firstName: true, lastName: true, email: true, phone: true, description: true });
// eslint-disable-next-line no-control-regex -- a cell with control characters is refused, as every JSON body's is (decision 037)
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface ImportedLead {
  line: number;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  description: string | null;
  source: LeadSource;
}

/** Each kind by its key and by its label, in the header's spelling-free form ("Walk-in", "walk in", "WALKIN"). */
const SOURCE_WORDS = new Map<string, LeadSource>(
  LEAD_SOURCES.flatMap((source) => [
    [source.replace(/[^a-z]/g, ""), source],
    [LEAD_SOURCE_LABELS[source].toLowerCase().replace(/[^a-z]/g, ""), source],
  ]),
);

/** A Lead Source cell as a kind: a kind's name or label in any case; anything else, or nothing, is "import" (decision 183). */
export function sourceOfCell(cell: string): LeadSource {
  return SOURCE_WORDS.get(cell.toLowerCase().replace(/[^a-z]/g, "")) ?? "import";
}

/** Every row as a lead or as its errors (line and field: message), with the Create Lead form's rules. */
export function checkRows(table: CsvTable, mapping: Record<string, ImportLeadField | null>): { leads: ImportedLead[]; errors: ImportPreview["errors"] } {
  const mapped = IMPORT_FIELDS.filter((f) => Object.values(mapping).includes(f));
  if (!mapped.includes("firstName") || !mapped.includes("lastName")) {
    throw badRequest("mapping: choose the columns of the first and the last name", { mapping: "choose the columns of the first and the last name" });
  }
  const index = new Map<ImportLeadField, number>();
  table.columns.forEach((column, i) => {
    const field = mapping[column];
    if (field && !index.has(field)) index.set(field, i);
  });
  const out: ImportedLead[] = [];
  const errors: ImportPreview["errors"] = [];
  for (const row of table.rows) {
    const values: Record<string, string> = {};
    const fields: Record<string, string> = {};
    for (const [field, i] of index) {
      const cell = row.cells[i] ?? "";
      if (field === "source") continue;
      if (CONTROL.test(cell)) fields[field] = "must not contain control characters";
      values[field] = cell;
    }
    const parsed = rowSchema.safeParse(values);
    if (!parsed.success) for (const issue of parsed.error.issues) fields[String(issue.path[0] ?? "row")] ??= issue.message;
    if (Object.keys(fields).length > 0 || !parsed.success) {
      errors.push({ line: row.line, fields });
      continue;
    }
    const lead = parsed.data;
    out.push({
      line: row.line,
      firstName: lead.firstName.slice(0, LEAD_NAME_MAX),
      lastName: lead.lastName.slice(0, LEAD_NAME_MAX),
      email: lead.email || null,
      phone: lead.phone || null,
      description: lead.description || null,
      source: index.has("source") ? sourceOfCell(row.cells[index.get("source")!] ?? "") : "import",
    });
  }
  return { leads: out, errors };
}

/**
 * Saves the checked rows as new, unclaimed leads of the dealership (source "import" unless a column said), in the
 * caller's transaction, and publishes the import's one leads.imported event (decision 184; no lead.created per row,
 * decision 135).
 */
export async function insertImportedLeads(tx: Tx, viewer: Pick<Viewer, "dealershipId" | "userId">, rows: ImportedLead[]): Promise<number> {
  const { dealershipId } = viewer;
  const CHUNK = 500;
  // The ids are chosen here so that their order is the file's: a row is linked to the rows above it.
  const ids = rows.map(() => nanoid());
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows
      .slice(i, i + CHUNK)
      .map(({ line: _line, ...lead }, j) => ({ ...lead, id: ids[i + j]!, dealershipId, status: "new" as const }));
    await tx.insert(leads).values(chunk);
  }
  // An imported customer who is already an open lead, or twice in the file, is linked like any new lead (decisions
  // 137, 153).
  await linkImportedDuplicates(tx, dealershipId, ids);
  const sources = new Set(rows.map((row) => row.source));
  const importId = nanoid();
  await publish(tx, {
    type: "leads.imported",
    dealershipId,
    actorId: actorIdOf(viewer),
    payload: {
      importId,
      file: "csv",
      // The New Leads link of the import's mail filters on one source; a file of several sources is "import".
      source: sources.size === 1 ? [...sources][0]! : "import",
      provider: null,
      total: ids.length,
      leads: rows.slice(0, IMPORT_LEADS_LISTED).map((row, i) => ({
        id: ids[i]!,
        firstName: row.firstName,
        lastName: row.lastName,
        email: row.email,
        phone: row.phone,
      })),
    },
  });
  // Each lead's timeline starts with the import (issue 26); the event lists only the first few.
  await recordImportedLeads(tx, { dealershipId, actorId: actorIdOf(viewer), importId }, ids);
  // Imported leads arrive like any other: to the reps on the floor when the dealership distributes at arrival.
  await handOutArrivals(tx, dealershipId, ids);
  return ids.length;
}
