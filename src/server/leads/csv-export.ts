import { Readable } from "node:stream";
import { stringify, type Stringifier } from "csv-stringify";
import { LEAD_STATUS_LABELS } from "../../shared/constants";
import { LEAD_SOURCE_LABELS } from "../../shared/lead-source";
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

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula: such a cell is
 * written with a leading apostrophe, which spreadsheets show as text (OWASP "CSV injection").
 */
export function neutraliseFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function rowOf(lead: Lead): string[] {
  return [
    lead.firstName,
    lead.lastName,
    lead.email ?? "",
    lead.phone ?? "",
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
  const csv = stringify({ header: true, columns: [...EXPORT_COLUMNS], bom: true, cast: { string: neutraliseFormula } });
  const rows = Readable.from(leadRows(db, viewer, filters));
  rows.on("error", (error) => csv.destroy(error));
  return rows.pipe(csv);
}
