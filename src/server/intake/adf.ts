import { XMLParser, XMLValidator } from "fast-xml-parser";
import { LEAD_DESCRIPTION_MAX, LEAD_NAME_MAX, leadEmailField, leadPhoneField } from "../../shared/schemas/lead";
import { LEAD_SOURCE_PROVIDER_MAX } from "../../shared/lead-source";

// ADF 1.0 (Auto-lead Data Format, the industry's XML for leads) read into new leads (issue 14; decisions 132, 133).
// The parser is fast-xml-parser, configured so a hostile document cannot hurt us: any DOCTYPE is refused before
// parsing (no internal subset means no entity declarations: no billion laughs, no external entities), and the parser's
// own entity limits stay as a second wall. Only the five predefined XML entities and character references decode.

/** The largest ADF document accepted, over HTTP or in a mail (decision 132). */
export const ADF_MAX_BYTES = 1024 * 1024;
/** Prospects in one document: a batch from a provider, not a data dump (decision 132). */
export const ADF_MAX_PROSPECTS = 500;

export class AdfError extends Error {}

export interface AdfProspect {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  description: string | null;
  provider: string | null;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  // Zip codes, stock numbers and phone numbers stay text.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  removeNSPrefix: true,
  htmlEntities: true,
  processEntities: { enabled: true, maxEntitySize: 1, maxEntityCount: 1, maxExpansionDepth: 1, maxExpandedLength: 100_000 },
  maxNestedTags: 50,
  isArray: (name) => ["prospect", "name", "email", "phone", "vehicle", "contact", "comments"].includes(name),
});

type Node = Record<string, unknown>;

/** The text of an element that may carry attributes ({ "#text": ..., "@part": ... }) or be a bare string. */
function textOf(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value && typeof value === "object" && "#text" in value) return textOf((value as Node)["#text"]);
  return "";
}

function nodes(value: unknown): Node[] {
  if (value === undefined || value === null) return [];
  return [value].flat().map((v) => (v && typeof v === "object" ? (v as Node) : { "#text": v }));
}

function first(value: unknown): Node | undefined {
  return nodes(value)[0];
}

function attr(node: Node, name: string): string {
  return textOf(node[`@${name}`]).toLowerCase();
}

/** A name element list: part="first"/"last", or a full name split at its last space. */
function nameParts(names: Node[]): { first: string; last: string } {
  const part = (p: string) => names.find((n) => attr(n, "part") === p);
  let firstName = textOf(part("first"));
  let lastName = textOf(part("last"));
  if (!firstName && !lastName) {
    const full = textOf(part("full") ?? names.find((n) => !attr(n, "part")) ?? names[0]).replace(/\s+/g, " ");
    const at = full.lastIndexOf(" ");
    if (at > 0) {
      firstName = full.slice(0, at);
      lastName = full.slice(at + 1);
    } else {
      firstName = full;
    }
  }
  return { first: firstName, last: lastName };
}

function vehicleLine(vehicle: Node): string | null {
  const words = ["year", "make", "model", "trim"].map((k) => textOf(vehicle[k])).filter(Boolean);
  const ids = [
    textOf(vehicle.vin) && `VIN ${textOf(vehicle.vin)}`,
    textOf(vehicle.stock) && `stock ${textOf(vehicle.stock)}`,
  ].filter(Boolean);
  if (words.length === 0 && ids.length === 0) return null;
  const status = attr(vehicle, "status");
  const what = [status === "new" || status === "used" ? status : "", ...words].filter(Boolean).join(" ");
  return `Vehicle of interest: ${what || "(not named)"}${ids.length ? ` (${ids.join(", ")})` : ""}`;
}

/** Throws AdfError when the text is not a well-formed ADF document we accept. */
export function parseAdfDocument(xml: string): AdfProspect[] {
  if (Buffer.byteLength(xml, "utf8") > ADF_MAX_BYTES) throw new AdfError(`The document is larger than ${ADF_MAX_BYTES / 1024 / 1024} MB`);
  // A DOCTYPE is the only way to declare entities (expansion bombs, external files): ADF needs none (decision 132).
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new AdfError("DOCTYPE and entity declarations are not accepted");
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new AdfError(`Malformed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  let root: Node;
  try {
    root = parser.parse(xml) as Node;
  } catch (error) {
    throw new AdfError(`Malformed XML: ${(error as Error).message}`);
  }
  const adf = root.adf;
  if (!adf || typeof adf !== "object") throw new AdfError("Not an ADF document: the root element must be <adf>");
  const prospects = nodes((adf as Node).prospect);
  if (prospects.length === 0) throw new AdfError("The ADF document has no <prospect>");
  if (prospects.length > ADF_MAX_PROSPECTS) throw new AdfError(`At most ${ADF_MAX_PROSPECTS} prospects per document`);
  return prospects.map((prospect, index) => readProspect(prospect, index + 1));
}

function readProspect(prospect: Node, number: number): AdfProspect {
  function fail(message: string): never {
    throw new AdfError(`prospect ${number}: ${message}`);
  }
  const customer = first(prospect.customer) ?? fail("<customer> is missing");
  const contacts = nodes(customer.contact);
  const contact = contacts.find((c) => attr(c, "primarycontact") === "1") ?? contacts[0] ?? fail("<customer><contact> is missing");
  const { first: firstName, last } = nameParts(nodes(contact.name));
  if (!firstName) fail("the customer's name is missing");
  // A customer known by one name (a marketplace form with a single field) keeps it as the first name (decision 133).
  const lastName = last || "(not given)";
  if (firstName.length > LEAD_NAME_MAX || lastName.length > LEAD_NAME_MAX) fail(`a name is longer than ${LEAD_NAME_MAX} characters`);

  const emailText = textOf(nodes(contact.email)[0]);
  const email = leadEmailField.safeParse(emailText);
  if (!email.success) fail(`email: ${email.error.issues[0]?.message ?? "is not valid"}`);
  const phones = nodes(contact.phone);
  const phoneNode = phones.find((p) => !attr(p, "type") || attr(p, "type") === "voice" || attr(p, "type") === "cellphone") ?? phones[0];
  const phone = leadPhoneField.safeParse(textOf(phoneNode));
  if (!phone.success) fail(`phone: ${phone.error.issues[0]?.message ?? "is not valid"}`);

  const provider = first(prospect.provider);
  const providerName = provider ? textOf(nodes(provider.name)[0]) || textOf(provider.service) : "";
  const lines = [
    ...nodes(customer.comments).map(textOf),
    ...nodes(prospect.vehicle).map(vehicleLine),
    ...nodes(prospect.vehicle).flatMap((v) => nodes(v.comments).map((c) => textOf(c) && `Vehicle comments: ${textOf(c)}`)),
    textOf(prospect.requestdate) && `Requested: ${textOf(prospect.requestdate)}`,
    providerName && `Provider: ${providerName}`,
  ].filter((line): line is string => Boolean(line));
  let description = lines.join("\n");
  if (description.length > LEAD_DESCRIPTION_MAX) description = `${description.slice(0, LEAD_DESCRIPTION_MAX - 1)}…`;

  return {
    firstName,
    lastName,
    email: email.data || null,
    phone: phone.data || null,
    description: description || null,
    provider: providerName ? providerName.slice(0, LEAD_SOURCE_PROVIDER_MAX) : null,
  };
}
