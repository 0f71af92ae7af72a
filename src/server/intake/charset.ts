import iconv from "iconv-lite";
import { AdfError } from "./adf";

// The bytes of an ADF document made text (issue 29; decision 180). Providers send ISO-8859-1, Windows-1252 and UTF-16
// as well as UTF-8; read as UTF-8 they became "J�rgen" without a word. The encoding is taken, in this order, from a
// byte order mark, the transport's charset (HTTP Content-Type, the MIME part's Content-Type), the XML declaration, and
// else UTF-8 (XML 1.0 Appendix F, RFC 7303). As browsers do (WHATWG Encoding Standard), "iso-8859-1" and "us-ascii"
// are read as Windows-1252, which only adds characters (’ “ ” € …) where the others have unused controls. UTF-8 and
// UTF-16 are decoded by TextDecoder, other encodings by iconv-lite (Node's TextDecoder reads "windows-1252" as
// Latin-1). Bytes that are not valid in the encoding found are refused, never replaced.

/** A document whose encoding is unknown, or whose bytes are not valid in it. */
export class CharsetError extends AdfError {}

const BOMS: Array<[number[], string]> = [
  [[0xef, 0xbb, 0xbf], "utf-8"],
  [[0xff, 0xfe], "utf-16le"],
  [[0xfe, 0xff], "utf-16be"],
];

/** `<?xml` or `<adf` in UTF-16 without a BOM: the XML declaration itself cannot be read before the byte order is known. */
const UTF16_LE_MARKS = ["<?xml", "<adf"].map((s) => Buffer.from(s, "utf16le"));
const UTF16_BE_MARKS = UTF16_LE_MARKS.map((mark) => Buffer.from(mark).swap16());

/** The charset parameter of a Content-Type header value, or null. */
export function charsetOf(contentType: string | undefined): string | null {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "")?.[1] ?? null;
}

const DECLARED = /<\?xml\s[^>]*?\bencoding\s*=\s*["']([^"']*)["']/;

function bomOf(bytes: Buffer): string | null {
  for (const [bom, encoding] of BOMS) if (bom.every((b, i) => bytes[i] === b)) return encoding;
  return null;
}

/** The byte order of a UTF-16 document without a BOM, from where its markup starts; null for an 8-bit one. */
function utf16Order(bytes: Buffer): "utf-16le" | "utf-16be" | null {
  const head = bytes.subarray(0, 64 * 1024);
  // Each pattern also matches the other byte order one byte off ("x<\0?" holds "\0<\0?"); code units start at even
  // offsets, so only a match at an even offset counts.
  const evenMatch = (marks: Buffer[]) =>
    marks.some((mark) => {
      for (let i = head.indexOf(mark); i >= 0; i = head.indexOf(mark, i + 1)) if (i % 2 === 0) return true;
      return false;
    });
  if (evenMatch(UTF16_LE_MARKS)) return "utf-16le";
  if (evenMatch(UTF16_BE_MARKS)) return "utf-16be";
  return null;
}

/** Labels read as Windows-1252, as browsers do (WHATWG): it only adds characters where these have unused controls. */
const READ_AS_WINDOWS_1252 = new Set(["iso-8859-1", "iso8859-1", "latin1", "l1", "iso_8859-1", "us-ascii", "ascii", "cp819", "ibm819"]);

const UNREADABLE = "is not one the intake can read: send UTF-8, ISO-8859-1, Windows-1252 or UTF-16";

/** The encoding a label names, lower-cased, or a refusal naming the label and where it came from. */
function encodingNamed(label: string, from: string): string {
  const name = label.trim().toLowerCase();
  if (READ_AS_WINDOWS_1252.has(name)) return "windows-1252";
  if (/^utf-?8$/.test(name)) return "utf-8";
  if (/^utf-?16(le|be)?$/.test(name)) return name.replace(/^utf-?16/, "utf-16");
  if (iconv.encodingExists(name)) return name;
  throw new CharsetError(`The document's encoding "${label}" (${from}) ${UNREADABLE}`);
}

/** The text of the bytes in the encoding, or null when they are not valid in it. */
function decodeStrictly(bytes: Buffer, encoding: string): string | null {
  if (encoding.startsWith("utf-")) {
    // TextDecoder refuses what is not valid (fatal) where iconv-lite would write U+FFFD; it drops the BOM.
    try {
      return new TextDecoder(encoding, { fatal: true }).decode(bytes);
    } catch {
      return null;
    }
  }
  // iconv-lite writes U+FFFD for a byte its table leaves unmapped (Windows-1252's 0x81, 0x8D, 0x8F, 0x90, 0x9D).
  const text = iconv.decode(bytes, encoding);
  return text.includes("\uFFFD") ? null : text;
}

/** The document's first characters, enough to find an XML declaration: as Latin-1 unless it is UTF-16. */
function headText(bytes: Buffer, order: "utf-16le" | "utf-16be" | null): string {
  if (!order) return bytes.subarray(0, 4096).toString("latin1");
  const head = Buffer.from(bytes.subarray(0, Math.min(4096, bytes.length & ~1)));
  return (order === "utf-16be" ? head.swap16() : head).toString("utf16le");
}

/**
 * The text of an ADF document from its bytes and the charset its transport named (null when none). Throws
 * CharsetError for an encoding we cannot read or bytes that are not valid in the encoding found.
 */
export function decodeDocument(bytes: Buffer, transportCharset: string | null): string {
  const order = utf16Order(bytes);
  let encoding = bomOf(bytes);
  let from = "its byte order mark";
  if (!encoding && transportCharset?.trim()) {
    from = "the Content-Type charset";
    encoding = encodingNamed(transportCharset, from);
  }
  if (!encoding) {
    // The declaration is ASCII in every encoding we read; in UTF-16 it is read once its byte order is known.
    const declared = DECLARED.exec(headText(bytes, order))?.[1];
    if (declared) {
      from = "the XML declaration";
      encoding = encodingNamed(declared, from);
      if (encoding.startsWith("utf-16") && !order) throw new CharsetError(`The XML declaration says ${declared}, but the document is not UTF-16`);
    } else {
      encoding = order ?? "utf-8";
      from = order ? "its first characters" : "the default";
    }
  }
  // "utf-16" names both byte orders; without a BOM, the markup's byte order decides (little-endian when none shows).
  if (encoding === "utf-16") encoding = order ?? "utf-16le";
  const text = decodeStrictly(bytes, encoding);
  if (text === null) throw new CharsetError(`The document is not valid ${encoding.toUpperCase()} (the encoding from ${from})`);
  return text;
}

/**
 * The ADF document inside a mail body: providers put a line before it ("Lead from Cars.com:") and a signature after
 * it. From the XML declaration or the <adf> tag, whichever comes first, to the end of the last </adf>.
 */
export function adfInBody(text: string): string | null {
  const starts = [text.indexOf("<?xml"), text.search(/<adf[\s>/]/)].filter((i) => i >= 0);
  if (starts.length === 0) return null;
  const start = Math.min(...starts);
  const close = text.lastIndexOf("</adf>");
  if (close > start) return text.slice(start, close + "</adf>".length);
  // An empty <adf/>: up to its end, so that it is refused for having no prospect, not for the signature after it.
  const empty = /<adf\b[^>]*\/>/.exec(text.slice(start));
  return empty ? text.slice(start, start + empty.index + empty[0].length) : text.slice(start).trim();
}
