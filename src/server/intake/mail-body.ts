import { Readable } from "node:stream";
import { Splitter, type MimeNode, type SplitterChunk } from "mailsplit";

// A mail body's bytes as sent (issue 29; decision 180). mailparser's text is already decoded, and for a part in UTF-8
// or without a charset it is decoded as UTF-8 with U+FFFD for what is not: an ISO-8859-1 ADF body without a MIME
// charset, which only its XML declaration names, came out as "J�rgen". This takes the bytes of the body part (its
// transfer encoding undone) and its charset, for decodeDocument to read as it reads an attachment or an HTTP post.

export interface MailPart {
  bytes: Buffer;
  charset: string | null;
}

/** The first text/plain part that is not an attachment (a message without a Content-Type is one), or null. */
export async function plainTextPart(message: Buffer): Promise<MailPart | null> {
  const body: Buffer[] = [];
  let chosen: MimeNode | null = null;
  const splitter = Readable.from([message]).pipe(new Splitter());
  for await (const chunk of splitter as AsyncIterable<SplitterChunk>) {
    if (chunk.type === "node") {
      const plain = (chunk.contentType || "text/plain") === "text/plain" && chunk.disposition !== "attachment";
      if (!chosen && !chunk.multipart && plain) chosen = chunk;
    } else if (chunk.type === "body" && chunk.node === chosen) {
      body.push(chunk.value);
    }
  }
  if (!chosen) return null;
  const decoder = chosen.getDecoder();
  const decoded: Buffer[] = [];
  decoder.on("data", (piece: Buffer) => decoded.push(piece));
  await new Promise<void>((resolve, reject) => {
    decoder.once("end", resolve).once("error", reject);
    decoder.end(Buffer.concat(body));
  });
  return { bytes: Buffer.concat(decoded), charset: chosen.charset || null };
}
