import { execFileSync } from "node:child_process";
import { createECDH, createPublicKey, hkdfSync, randomBytes, verify, createDecipheriv, type ECDH } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

// A push service on this machine for the tests (issue 11): HTTPS with a certificate made for the run, speaking RFC
// 8030 as a push service does (201 Created, or the status a test asks for), and a browser's side of RFC 8291: a P-256
// key pair and auth secret per subscription, with which a test decrypts what our server sent. Nothing of web-push's
// code is used to read it back: the decryption below follows the RFC with node:crypto.

export interface ReceivedPush {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface LocalPushService {
  /** The certificate to trust (pass it to an https.Agent's `ca`). */
  certificate: string;
  origin: string;
  received: ReceivedPush[];
  /** Answers the next pushes to `path` with these statuses, in order (then 201 again). */
  answerNext(path: string, ...statuses: number[]): void;
  receivedAt(path: string): ReceivedPush[];
  close(): Promise<void>;
}

export async function startPushService(): Promise<LocalPushService> {
  const dir = mkdtempSync(path.join(tmpdir(), "push-endpoint-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
    "-keyout", keyFile, "-out", certFile,
  ], { stdio: "ignore" });
  const key = readFileSync(keyFile, "utf8");
  const certificate = readFileSync(certFile, "utf8");
  rmSync(dir, { recursive: true, force: true });

  const received: ReceivedPush[] = [];
  const planned = new Map<string, number[]>();
  const server: Server = createServer({ key, cert: certificate }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const at = request.url ?? "/";
      received.push({ path: at, headers: request.headers, body: Buffer.concat(chunks) });
      const status = planned.get(at)?.shift() ?? 201;
      response.writeHead(status, status === 201 ? { location: `${at}/message/${received.length}` } : {});
      response.end(status >= 400 ? "refused by the test" : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    certificate,
    origin: `https://localhost:${port}`,
    received,
    answerNext(at, ...statuses) {
      planned.set(at, [...(planned.get(at) ?? []), ...statuses]);
    },
    receivedAt: (at) => received.filter((r) => r.path === at),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A browser's push subscription: what PushSubscription.toJSON() gives, and the private half to decrypt with. */
export interface BrowserSubscription {
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  ecdh: ECDH;
  auth: Buffer;
}

export function browserSubscription(endpoint: string): BrowserSubscription {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    json: { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } },
    ecdh,
    auth,
  };
}

/** RFC 8291 §3-4 with RFC 8188's aes128gcm record: what the browser does with a push before its service worker sees it. */
export function decryptPush(subscription: BrowserSubscription, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error("a push is one record");

  const ecdhSecret = subscription.ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), subscription.ecdh.getPublicKey(), serverPublicKey]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, subscription.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));

  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then any padding zeros (RFC 8188 §2).
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("missing the last-record delimiter");
  return padded.subarray(0, end).toString("utf8");
}

export interface VapidClaims {
  aud: string;
  exp: number;
  sub: string;
}

/**
 * RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`. Checks the ES256 signature with k and answers k and the
 * claims; throws when the header is missing or the signature does not hold.
 */
export function readVapidAuthorization(header: string | string[] | undefined): { publicKey: string; claims: VapidClaims } {
  const match = /^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+), k=([A-Za-z0-9_-]+)$/.exec(String(header ?? ""));
  if (!match) throw new Error(`not a VAPID Authorization header: ${String(header)}`);
  const [, token, publicKey] = match as unknown as [string, string, string];
  const [head, claims, signature] = token.split(".") as [string, string, string];
  const point = Buffer.from(publicKey, "base64url");
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33, 65).toString("base64url") },
    format: "jwk",
  });
  const valid = verify("sha256", Buffer.from(`${head}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  if (!valid) throw new Error("the VAPID signature does not verify with k");
  if (JSON.parse(Buffer.from(head, "base64url").toString()).alg !== "ES256") throw new Error("VAPID tokens are ES256");
  return { publicKey, claims: JSON.parse(Buffer.from(claims, "base64url").toString()) as VapidClaims };
}
