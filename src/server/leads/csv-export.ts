import { Readable } from "node:stream";
import { stringify, type Stringifier } from "csv-stringify";
import { LEAD_STATUS_LABELS } from "../../shared/constants";
import { LEAD_SOURCE_LABELS } from "../../shared/lead-source";
import { formatPhone } from "../../shared/phone";
import { LEADS_PAGE_MAX, type Lead } from "../../shared/schemas/lead";
import type { Db } from "../db/client";
import { listLeads, type LeadListOptions, type Viewer } from "./queries";

// Exporting the current list as CSV (issue 14; decision 135): the same query and visibility as the list on screen,
// page after page (keyset), streamed through csv-stringify so a large dealership's export never sits in memory.

export const EXPORT_COLUMNS = [
  "First Name",
  "Last Name",
  "Email",
  "Phone",
  "Description",
  "Status",
  "Source",
  "Provider",
  "Created",
  "Claimed By",
  "Claimed At",
] as const;

const ESCAPED = /^'*[=+\-@\t\r]/;

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula: such a cell is
 * written with a leading apostrophe, which spreadsheets show as text (OWASP "CSV injection"). A cell that already
 * starts with apostrophes before such a character gets one more, so that the import can take exactly one off
 * (`restoreFormula`) and every value comes back as it was (decision 182).
 */
export function neutraliseFormula(value: string): string {
  return ESCAPED.test(value) ? `'${value}` : value;
}

/** The import's inverse of `neutraliseFormula`: an apostrophe before = + - @ (tab, CR) is the export's, and goes. */
export function restoreFormula(cell: string): string {
  return ESCAPED.test(cell) && cell.startsWith("'") ? cell.slice(1) : cell;
}

function rowOf(lead: Lead): string[] {
  return [
    lead.firstName,
    lead.lastName,
    lead.email ?? "",
    formatPhone(lead.phone),
    lead.description ?? "",
    LEAD_STATUS_LABELS[lead.status],
    LEAD_SOURCE_LABELS[lead.source],
    lead.sourceProvider ?? "",
    lead.createdAt,
    lead.claimedByName ?? "",
    lead.claimedAt ?? "",
  ];
}

async function* leadRows(db: Db, viewer: Viewer, filters: Omit<LeadListOptions, "limit" | "cursor">): AsyncGenerator<string[]> {
  let cursor: LeadListOptions["cursor"];
  for (;;) {
    const page = await listLeads(db, viewer, { ...filters, limit: LEADS_PAGE_MAX, cursor });
    for (const lead of page.leads) yield rowOf(lead);
    if (!page.next) return;
    cursor = page.next;
  }
}

/** The CSV of every lead the list shows with these filters, as a stream. */
export function exportLeadsCsv(db: Db, viewer: Viewer, filters: Omit<LeadListOptions, "limit" | "cursor">): Stringifier {
  const csv = stringify({
    header: true,
    columns: [...EXPORT_COLUMNS],
    bom: true,
    // Records end in CRLF, as RFC 4180 says and as Excel writes them (decision 182).
    record_delimiter: "windows",
    cast: { string: neutraliseFormula },
  });
  const rows = Readable.from(leadRows(db, viewer, filters));
  rows.on("error", (error) => csv.destroy(error));
  return rows.pipe(csv);
}
