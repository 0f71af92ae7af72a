// Where a lead came from (issue 14; decision 130). One kind per lead; an ADF lead also names its provider (the
// <provider><name> of the document, e.g. "AutoTrader"), kept in its own column so the filter and the analytics group
// by kind while the badge can still say who sent it.

export const LEAD_SOURCES = ["walk-in", "phone", "website", "import", "adf"] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];

/** Sources a person picks on the Create Lead form; import and ADF are set by the intake itself. */
export const FORM_LEAD_SOURCES = ["walk-in", "phone", "website"] as const satisfies readonly LeadSource[];
export const DEFAULT_LEAD_SOURCE = "walk-in" satisfies LeadSource;

export const LEAD_SOURCE_LABELS: Record<LeadSource, string> = {
  "walk-in": "Walk-in",
  phone: "Phone",
  website: "Website",
  import: "Import",
  adf: "ADF",
};

/** A provider name as stored: trimmed, at most this long (ADF providers are short brand names). */
export const LEAD_SOURCE_PROVIDER_MAX = 100;

/** What a badge says: the provider for ADF ("AutoTrader"), otherwise the kind's label. */
export function leadSourceLabel(source: LeadSource, provider: string | null | undefined): string {
  if (source === "adf" && provider) return provider;
  return LEAD_SOURCE_LABELS[source] ?? source;
}
