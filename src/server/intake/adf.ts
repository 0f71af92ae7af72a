import { XMLParser, XMLValidator } from "fast-xml-parser";
import { LEAD_DESCRIPTION_MAX, LEAD_NAME_MAX, leadEmailField, leadPhoneField } from "../../shared/schemas/lead";
import { LEAD_SOURCE_PROVIDER_MAX } from "../../shared/lead-source";
import { formatPhone, storedPhone } from "../../shared/phone";
import { normalizeVin, vinHasValidCharacters } from "../../shared/schemas/vehicle";
import { VEHICLE_INTERESTS, type VehicleInterest, type WantedVehicle } from "../../shared/schemas/vehicle-of-interest";

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
  /** What was left out of the lead rather than refusing the document (a bad phone), for the document's record. */
  dropped: string | null;
  /** The vehicles the customer wants that the document names by VIN or stock number, to find in the inventory. */
  vehicles: WantedVehicle[];
}

/** Vehicles of interest kept per prospect: a customer's few cars, not a provider's catalogue. */
const VEHICLES_OF_INTEREST_MAX = 10;
const STOCK_NUMBER_MAX = 50;

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
  isArray: (name) => ["prospect", "name", "email", "phone", "vehicle", "contact", "comments", "price", "street"].includes(name),
});

type Node = Record<string, unknown>;

/**
 * A character XML 1.0 does not allow (§2.2 Char: C0 controls but tab, line feed and carriage return; lone surrogates;
 * U+FFFE and U+FFFF). The parser would pass them through to the lead, and PostgreSQL refuses a NUL in text: the
 * document failed at its insert, an HTTP 500 and an SMTP 451 a sending server retries for ever (decision 172).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Throws AdfError naming the first character XML does not allow and where it is. */
function assertXmlCharacters(xml: string): void {
  const found = NOT_XML_CHAR.exec(xml);
  if (!found) return;
  const before = xml.slice(0, found.index);
  const line = before.split("\n").length;
  const column = found.index - before.lastIndexOf("\n");
  const code = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  throw new AdfError(`The document contains ${code}, a character XML does not allow (line ${line}, column ${column})`);
}

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

// What the customer means by each vehicle (ADF 1.0 <vehicle interest>): the car they want, the one they trade in or
// sell, a lease, a test drive (issue 29). A value the standard does not list is shown as it is.
const INTEREST_LABELS: Record<string, string> = {
  buy: "Vehicle of interest",
  lease: "Wants to lease",
  "test-drive": "Test drive requested",
  "trade-in": "Trade-in",
  sell: "Vehicle to sell",
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * An ADF date (ISO 8601, often with the sender's offset) as people read it, on the sender's own clock: "2 Mar 2026,
 * 10:15 (UTC-05:00)". Text that is not such a date is shown as it came.
 */
export function adfDateText(text: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/.exec(text.trim());
  const month = m ? MONTHS[Number(m[2]) - 1] : undefined;
  if (!m || !month || Number(m[3]) < 1 || Number(m[3]) > 31) return text;
  const date = `${Number(m[3])} ${month} ${m[1]}`;
  if (m[4] === undefined) return date;
  const zone = m[6] === undefined ? "" : m[6] === "Z" ? " (UTC)" : ` (UTC${m[6].length === 5 ? `${m[6].slice(0, 3)}:${m[6].slice(3)}` : m[6]})`;
  return `${date}, ${m[4]}:${m[5]}${zone}`;
}

/** A number written with thousands separators ("120,000"); other text as it is. */
function amount(text: string): string {
  return /^\d+(\.\d+)?$/.test(text) ? Number(text).toLocaleString("en-CA", { maximumFractionDigits: 2 }) : text;
}

/** <price type="quote" currency="CAD">25000</price> → "quote price CAD 25,000". */
function priceText(price: Node): string | null {
  const value = textOf(price);
  if (!value) return null;
  const type = attr(price, "type");
  const currency = textOf(price["@currency"]).toUpperCase();
  return `${type ? `${type} ` : ""}price ${currency ? `${currency} ` : ""}${amount(value)}`;
}

/** <odometer units="km" status="original">120000</odometer> → "120,000 km". */
function odometerText(odometer: Node | undefined): string | null {
  const value = odometer ? textOf(odometer) : "";
  if (!value || !odometer) return null;
  const units = attr(odometer, "units");
  const status = attr(odometer, "status");
  return `${amount(value)}${units ? ` ${units}` : ""}${status && status !== "original" ? ` (${status})` : ""}`;
}

function vehicleLine(vehicle: Node): string | null {
  const words = ["year", "make", "model", "trim"].map((k) => textOf(vehicle[k])).filter(Boolean);
  const odometer = odometerText(first(vehicle.odometer));
  const details = [
    textOf(vehicle.vin) && `VIN ${textOf(vehicle.vin)}`,
    textOf(vehicle.stock) && `stock ${textOf(vehicle.stock)}`,
    odometer && `odometer ${odometer}`,
    ...nodes(vehicle.price).map(priceText),
  ].filter(Boolean);
  if (words.length === 0 && details.length === 0) return null;
  const status = attr(vehicle, "status");
  const interest = attr(vehicle, "interest") || "buy";
  const label = INTEREST_LABELS[interest] ?? `Vehicle (${interest})`;
  const what = [status === "new" || status === "used" ? status : "", ...words].filter(Boolean).join(" ");
  return `${label}: ${what || "(not named)"}${details.length ? ` (${details.join(", ")})` : ""}`;
}

/**
 * A <vehicle> the dealership may have in its inventory (decision 188): one the customer wants to buy, lease or drive
 * (a trade-in or a car to sell is the customer's), named by a well-formed VIN or a stock number.
 */
function vehicleOfInterest(vehicle: Node): WantedVehicle | null {
  const interest = attr(vehicle, "interest") || "buy";
  if (!(VEHICLE_INTERESTS as readonly string[]).includes(interest)) return null;
  const vin = normalizeVin(textOf(vehicle.vin));
  const stock = textOf(vehicle.stock);
  const kept = {
    interest: interest as VehicleInterest,
    vin: vinHasValidCharacters(vin) ? vin : null,
    stockNumber: stock && stock.length <= STOCK_NUMBER_MAX ? stock : null,
  };
  return kept.vin || kept.stockNumber ? kept : null;
}

/** <address><street line="1">..</street><city>..</city><regioncode>..</regioncode>... → one line. */
function addressText(address: Node | undefined): string | null {
  if (!address) return null;
  const streets = nodes(address.street).map(textOf);
  const apartment = textOf(address.apartment);
  const region = [textOf(address.regioncode), textOf(address.postalcode)].filter(Boolean).join(" ");
  const parts = [...streets, apartment && `Apt ${apartment}`, textOf(address.city), region, textOf(address.country)].filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

/** A phone as the lead shows one (decision 205), or as it came when it is not a number. */
function phoneText(node: Node | undefined): string {
  const text = node ? textOf(node) : "";
  const stored = text ? storedPhone(text) : null;
  return stored ? formatPhone(stored) : text;
}

/** <timeframe><description>..</description><earliestdate>..</earliestdate><latestdate>..</latestdate></timeframe>. */
function timeframeText(timeframe: Node | undefined): string | null {
  if (!timeframe) return null;
  const earliest = textOf(timeframe.earliestdate);
  const latest = textOf(timeframe.latestdate);
  const range = [earliest && `from ${adfDateText(earliest)}`, latest && `by ${adfDateText(latest)}`].filter(Boolean).join(" ");
  const parts = [textOf(timeframe.description), range].filter(Boolean);
  return parts.length ? parts.join(", ") : null;
}

/** <vendor><vendorname>..</vendorname><contact>..</contact></vendor>: the dealer the provider sent the lead for. */
function vendorText(vendor: Node | undefined): string | null {
  if (!vendor) return null;
  const contact = first(vendor.contact);
  const who = contact ? nameParts(nodes(contact.name)) : null;
  const person = contact ? [[who?.first, who?.last].filter(Boolean).join(" "), textOf(nodes(contact.email)[0]), phoneText(nodes(contact.phone)[0])].filter(Boolean) : [];
  const name = textOf(vendor.vendorname);
  if (!name && person.length === 0) return null;
  return `${name || "(not named)"}${person.length ? ` (contact: ${person.join(", ")})` : ""}`;
}

/** Throws AdfError when the text is not a well-formed ADF document we accept. */
export function parseAdfDocument(xml: string): AdfProspect[] {
  if (Buffer.byteLength(xml, "utf8") > ADF_MAX_BYTES) throw new AdfError(`The document is larger than ${ADF_MAX_BYTES / 1024 / 1024} MB`);
  // A DOCTYPE is the only way to declare entities (expansion bombs, external files): ADF needs none (decision 132).
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new AdfError("DOCTYPE and entity declarations are not accepted");
  assertXmlCharacters(xml);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new AdfError(`Malformed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  let root: Node;
  try {
    root = parser.parse(xml) as Node;
  } catch (error) {
    throw new AdfError(`Malformed XML: ${(error as Error).message}`);
  }
  const adf = root.adf;
  if (adf === undefined) throw new AdfError("Not an ADF document: the root element must be <adf>");
  // An empty <adf/> or <adf></adf> parses to "": an ADF document, with nothing in it.
  const prospects = adf && typeof adf === "object" ? nodes((adf as Node).prospect) : [];
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
  // A phone no one can dial does not cost the dealership the customer: the lead is kept without it, and the
  // document's record says what was left out (decision 181). A bad name or e-mail still refuses the document.
  const phoneText = textOf(phoneNode);
  const phone = leadPhoneField.safeParse(phoneText);
  const shown = phoneText.length > 40 ? `${phoneText.slice(0, 39)}…` : phoneText;
  const dropped = phone.success ? null : `prospect ${number}: phone "${shown}" left out (${phone.error.issues[0]?.message ?? "not valid"})`;

  const provider = first(prospect.provider);
  const providerName = provider ? textOf(nodes(provider.name)[0]) || textOf(provider.service) : "";
  // Everything else the document says about the customer and the cars is kept on the lead, one line each, in its
  // description, which the lead's page shows (issue 29).
  const address = addressText(first(contact.address));
  const timeframe = timeframeText(first(customer.timeframe));
  const vendor = vendorText(first(prospect.vendor));
  const lines = [
    ...nodes(customer.comments).map(textOf),
    ...nodes(prospect.vehicle).map(vehicleLine),
    ...nodes(prospect.vehicle).flatMap((v) => nodes(v.comments).map((c) => textOf(c) && `Vehicle comments: ${textOf(c)}`)),
    address && `Address: ${address}`,
    timeframe && `Timeframe: ${timeframe}`,
    textOf(prospect.requestdate) && `Requested: ${adfDateText(textOf(prospect.requestdate))}`,
    vendor && `Vendor: ${vendor}`,
    providerName && `Provider: ${providerName}`,
  ].filter((line): line is string => Boolean(line));
  let description = lines.join("\n");
  if (description.length > LEAD_DESCRIPTION_MAX) description = `${description.slice(0, LEAD_DESCRIPTION_MAX - 1)}…`;

  return {
    firstName,
    lastName,
    email: email.data || null,
    phone: (phone.success && phone.data) || null,
    description: description || null,
    provider: providerName ? providerName.slice(0, LEAD_SOURCE_PROVIDER_MAX) : null,
    dropped,
    vehicles: nodes(prospect.vehicle)
      .map(vehicleOfInterest)
      .filter((v): v is WantedVehicle => v !== null)
      .slice(0, VEHICLES_OF_INTEREST_MAX),
  };
}
