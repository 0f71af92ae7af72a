// The little of mailsplit (mailparser's own MIME splitter) that mail-body.ts uses; the package has no types.
declare module "mailsplit" {
  import type { Transform } from "node:stream";

  export interface MimeNode {
    type: "node";
    contentType: string | false;
    charset: string | false;
    disposition: string | false;
    multipart: string | false;
    getDecoder(): Transform;
  }
  export type SplitterChunk = MimeNode | { type: "body" | "data"; node: MimeNode; value: Buffer };

  export class Splitter extends Transform {}
}
