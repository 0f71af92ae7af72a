import { Transform, type Readable } from "node:stream";
import { parse } from "csv-parse";
import { nanoid } from "nanoid";
import { z } from "zod";
import { LEAD_NAME_MAX } from "../../shared/schemas/lead";
import { createLeadSchema } from "../../shared/schemas/lead";
import { linkImportedDuplicates } from "./duplicates";
import type { ImportLeadField, ImportPreview } from "../../shared/schemas/responses/intake";
import type { Tx } from "../db/client";
import { leads } from "../db/schema/leads";
import { HttpError, badRequest } from "../http/errors";

// Importing leads from a CSV file (issue 14; decision 135): streamed through csv-parse with a size and a row cap, the
// columns mapped to lead fields (guessed from the header, or chosen in the dialog), every row checked with the same
// schema as the Create Lead form, and then all rows saved in one transaction or none.

export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 5000;
export const IMPORT_SAMPLE_ROWS = 5;
/** Per-row errors listed at most (the count says how many rows failed in all). */
export const IMPORT_ERRORS_LISTED = 100;

export const IMPORT_FIELDS: readonly ImportLeadField[] = ["firstName", "lastName", "email", "phone", "description"];

export interface CsvTable {
  columns: string[];
  rows: Array<{ line: number; cells: string[] }>;
}

/** Counts bytes on their way to the parser and stops the upload the moment it passes the cap (a 413). */
function byteCap(max: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > max) return callback(new HttpError(413, `The file is larger than ${max / 1024 / 1024} MB`));
      callback(null, chunk);
    },
  });
}

/** Reads a CSV upload: the header row and every data row with its line in the file (BOM, quotes, commas, CRLF). */
export async function readCsv(upload: Readable, limits = { maxBytes: IMPORT_MAX_BYTES, maxRows: IMPORT_MAX_ROWS }): Promise<CsvTable> {
  const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true, max_record_size: 64 * 1024 });
  const capped = byteCap(limits.maxBytes);
  upload.on("error", (error) => capped.destroy(error));
  capped.on("error", (error) => parser.destroy(error));
  upload.pipe(capped).pipe(parser);
  let columns: string[] | null = null;
  const rows: CsvTable["rows"] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (!columns) {
        columns = record.map((c, i) => c || `Column ${i + 1}`);
        continue;
      }
      if (record.every((cell) => cell === "")) continue;
      if (rows.length >= limits.maxRows) throw new HttpError(413, `At most ${limits.maxRows} rows can be imported at once`);
      // info.lines is where the record ends; a quoted cell may span lines, and a person looks for where it starts.
      const inner = record.reduce((n, cell) => n + (cell.match(/\n/g)?.length ?? 0), 0);
      rows.push({ line: info.lines - inner, cells: record });
    }
  } catch (error) {
    upload.unpipe();
    upload.resume();
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
    });
  }
  return { leads: out, errors };
}

/** Saves the checked rows as new, unclaimed leads of the dealership, source "import", in the caller's transaction. */
export async function insertImportedLeads(tx: Tx, dealershipId: string, rows: ImportedLead[]): Promise<number> {
  const CHUNK = 500;
  // The ids are chosen here so that their order is the file's: a row is linked to the rows above it.
  const ids = rows.map(() => nanoid());
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows
      .slice(i, i + CHUNK)
      .map(({ line: _line, ...lead }, j) => ({ ...lead, id: ids[i + j]!, dealershipId, status: "new" as const, source: "import" as const }));
    await tx.insert(leads).values(chunk);
  }
  // An imported customer who is already an open lead, or twice in the file, is linked like any new lead (decisions
  // 137, 153).
  await linkImportedDuplicates(tx, dealershipId, ids);
  return ids.length;
}
