import { createHmac, randomBytes } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { checkWebhookTarget, WebhookAddressError } from "./webhook-addresses";

// One signed POST to a webhook (issue 28, decision 227), per the Standard Webhooks specification: webhook-id,
// webhook-timestamp (seconds) and webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>" keyed with the
// secret's base64-decoded bytes. Success is a 2xx within 10 s; redirects are not followed (a 3xx is a failure); at
// most 1 KB of the answer is kept.

export const WEBHOOK_SECRET_PREFIX = "whsec_";
export const SEND_TIMEOUT_MS = 10_000;
const KEPT_RESPONSE_BYTES = 1024;

export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(24).toString("base64");
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  /** At most 1 KB of the answer, or why there was none. */
  response: string;
}

/** Sends one attempt; never throws. The address is checked now and the connection pinned to it. */
export async function sendWebhook(options: { url: string; secret: string; id: string; body: string; allowPrivate: boolean; timeoutMs?: number }): Promise<SendOutcome> {
  let target;
  try {
    target = await checkWebhookTarget(options.url, options.allowPrivate);
  } catch (error) {
    return { ok: false, statusCode: null, response: error instanceof WebhookAddressError ? error.message : "The address could not be checked" };
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const { url } = target;
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = transport.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        lookup: pinned,
        agent: false,
        headers: {
          "content-type": "application/json",
          "user-agent": "Showroom-Webhooks/1",
          "webhook-id": options.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook(options.secret, options.id, timestamp, options.body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on("data", (chunk: Buffer) => {
          if (kept >= KEPT_RESPONSE_BYTES) return;
          chunks.push(chunk.subarray(0, KEPT_RESPONSE_BYTES - kept));
          kept += Math.min(chunk.length, KEPT_RESPONSE_BYTES - kept);
          if (kept >= KEPT_RESPONSE_BYTES) response.destroy();
        });
        const done = () => {
          const status = response.statusCode ?? 0;
          finish({ ok: status >= 200 && status < 300, statusCode: status, response: Buffer.concat(chunks).toString("utf8") });
        };
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, statusCode: null, response: `No answer within ${Math.round((options.timeoutMs ?? SEND_TIMEOUT_MS) / 1000)} s` });
    }, options.timeoutMs ?? SEND_TIMEOUT_MS);
    request.on("error", (error) => finish({ ok: false, statusCode: null, response: `Could not send: ${error.message}`.slice(0, KEPT_RESPONSE_BYTES) }));
    request.end(options.body);
  });
}
