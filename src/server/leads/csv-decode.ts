import iconv from "iconv-lite";
import { badRequest } from "../http/errors";

// What a spreadsheet writes when it saves "CSV" (issue 29; decision 182): UTF-8 with or without a BOM, Excel's
// "Unicode text" (UTF-16 with a BOM, tab-separated), and the ANSI code page of a Western Windows (Windows-1252), with a
// comma, or a semicolon where the decimal mark is a comma (French, German locales), or a tab. The bytes are decoded
// here, before csv-parse sees them, so that no file is garbled silently: it is read in one named encoding or refused.

export type CsvEncoding = "UTF-8" | "UTF-16LE" | "UTF-16BE" | "Windows-1252";

const DECODERS = { "UTF-8": "utf-8", "UTF-16LE": "utf-16le", "UTF-16BE": "utf-16be" } as const;

function strict(encoding: keyof typeof DECODERS, bytes: Uint8Array): string {
  try {
    return new TextDecoder(DECODERS[encoding], { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw badRequest(`The file is not valid ${encoding} text`, { file: `is not valid ${encoding} text` });
  }
}

// Windows-1252 through iconv-lite, as the ADF intake reads it (src/server/intake/charset.ts): Node's
// TextDecoder("windows-1252") reads 0x80-0x9F as Latin-1's control characters (€ would vanish). The five bytes 1252
// leaves undefined come out as U+FFFD and mean the file is in some other code page: refused rather than guessed.
function windows1252(bytes: Uint8Array): string {
  const text = iconv.decode(Buffer.from(bytes), "windows-1252");
  if (text.includes("\ufffd")) throw badRequest("The file is neither UTF-8 nor Windows-1252 text: save it as CSV UTF-8", { file: "is neither UTF-8 nor Windows-1252 text" });
  return text;
}

const starts = (bytes: Uint8Array, ...prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** The text of an upload and the encoding it was read in: by its BOM, else UTF-8, else Windows-1252. */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  if (starts(bytes, 0xff, 0xfe, 0x00, 0x00) || starts(bytes, 0x00, 0x00, 0xfe, 0xff)) {
    throw badRequest("The file is in UTF-32, which is not read: save it as CSV UTF-8", { file: "is in UTF-32" });
  }
  if (starts(bytes, 0xef, 0xbb, 0xbf)) return { text: strict("UTF-8", bytes.subarray(3)), encoding: "UTF-8" };
  if (starts(bytes, 0xff, 0xfe)) return { text: strict("UTF-16LE", bytes.subarray(2)), encoding: "UTF-16LE" };
  if (starts(bytes, 0xfe, 0xff)) return { text: strict("UTF-16BE", bytes.subarray(2)), encoding: "UTF-16BE" };
  // Text in UTF-8 or Windows-1252 has no NUL byte; UTF-16 without a BOM and a workbook (.xlsx is a zip) do.
  if (bytes.includes(0)) {
    throw badRequest("The file is not CSV text (UTF-16 without a byte order mark, or a workbook): save it as CSV UTF-8", { file: "is not CSV text" });
  }
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), encoding: "UTF-8" };
  } catch {
    // Not UTF-8: Excel's "CSV (Comma delimited)" on a Western Windows writes the ANSI code page, Windows-1252, in
    // which every byte is a character (decision 182).
    return { text: windows1252(bytes), encoding: "Windows-1252" };
  }
}

export type CsvDelimiter = "," | ";" | "\t";

/** The separator the header line uses most (outside quotes): comma, semicolon or tab; a comma when none. */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts: Record<CsvDelimiter, number> = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && char in counts) counts[char as CsvDelimiter]++;
  }
  const best = (Object.keys(counts) as CsvDelimiter[]).reduce((a, b) => (counts[b] > counts[a] ? b : a));
  return counts[best] > 0 ? best : ",";
}
