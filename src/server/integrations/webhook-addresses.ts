import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

// Where a webhook may be sent (issue 28, decisions 227 and 208): https to public addresses only. Loopback, private,
// link-local, CGNAT, cloud metadata, documentation and multicast ranges, IPv6 unique-local and link-local addresses,
// and the IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) around a refused one, are
// refused when the webhook is saved and again at every send (the name is resolved then, and the connection goes to
// the address checked: a DNS answer that changes between the check and the connection cannot point it inward).
// WEBHOOKS_ALLOW_PRIVATE=1 lifts the address rule for tests and intranets; the URL's written form is checked always.

// Two lists: a BlockList matches an IPv4 address against IPv6 rules too (as ::ffff:a.b.c.d), which the mapped range
// would refuse every time.
const refusedV4 = new BlockList();
const refusedV6 = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  refusedV4.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  // NAT64 for a local network's own IPv4 (RFC 8215), whatever it embeds.
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:2::", 48],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  refusedV6.addSubnet(network, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included), or null. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6 || address.includes("%")) return null;
  let text = address.toLowerCase();
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const part = (groups: string) => (groups ? groups.split(":").map((group) => parseInt(group, 16)) : []);
  const front = part(head);
  const back = tail === undefined ? [] : part(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join(".");

/**
 * The IPv4 addresses an IPv6 transition form carries, each of which decides where the packets end up: IPv4-mapped
 * (::ffff:0:0/96), IPv4-compatible (::/96), SIIT (::ffff:0:0:0/96), NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo
 * (2001::/32: its server, and its client stored inverted).
 */
export function embeddedIpv4(address: string): string[] {
  const g = ipv6Groups(address);
  if (!g) return [];
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && (g[5] === 0 || g[5] === 0xffff)) return [ipv4Of(g[6]!, g[7]!)];
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return [ipv4Of(g[6]!, g[7]!)];
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) return [ipv4Of(g[2]!, g[3]!), ipv4Of(~g[6]! & 0xffff, ~g[7]! & 0xffff)];
  return [];
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return !refusedV4.check(address, "ipv4");
  if (refusedV6.check(address, "ipv6")) return false;
  return embeddedIpv4(address).every((ipv4) => !refusedV4.check(ipv4, "ipv4"));
}

export class WebhookAddressError extends Error {}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to (checked), and its family. */
  address: string;
  family: 4 | 6;
}

/**
 * The URL's shape: https (or http when private addresses are allowed), no user name or password, and the host
 * written as it will be used. A URL parser turns "2130706433", "0x7f.1", "%31%32%37.0.0.1", "127。0。0。1" or
 * "ⓛⓞⓒⓐⓛⓗⓞⓢⓣ" into 127.0.0.1 or localhost: such spellings only hide where the webhook goes, so they are refused
 * rather than decoded, and so are internationalized names (Unicode or xn--), IPv6 zone ids and percent-escapes.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#\\]*)/i.exec(raw)?.[1];
  if (authority?.includes("@")) return "must not carry a user name or password";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    if (authority?.includes("%")) return "must not hold an IPv6 zone id (%) or percent-escapes in its host";
    return "must be a full URL (https://...)";
  }
  if (authority === undefined) return "must be a full URL (https://...)";
  if (url.username || url.password) return "must not carry a user name or password";
  const written = authority.replace(/:\d*$/, "").toLowerCase();
  if (written.includes("%")) return "must not hold an IPv6 zone id (%) or percent-escapes in its host";
  // eslint-disable-next-line no-control-regex -- any character beyond ASCII
  if (/[^\x00-\x7f]/.test(written) || written.split(".").some((label) => label.startsWith("xn--"))) {
    return "must name its host in plain ASCII: internationalized (IDN or xn--) host names are not accepted";
  }
  if (!written.startsWith("[") && written !== url.hostname) {
    return isIP(url.hostname) === 4 ? `must write an IPv4 address as four decimal numbers (${url.hostname})` : `must write its host as ${url.hostname}`;
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return "must be an https:// URL";
  return null;
}

/** Resolves the URL's host and answers the address to connect to; throws WebhookAddressError when refused. */
export async function checkWebhookTarget(raw: string, allowPrivate: boolean): Promise<CheckedTarget> {
  const problem = webhookUrlProblem(raw, allowPrivate);
  if (problem) throw new WebhookAddressError(`The URL ${problem}`);
  const url = new URL(raw);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new WebhookAddressError(`The host ${host} could not be found`);
    }
  }
  if (addresses.length === 0) throw new WebhookAddressError(`The host ${host} could not be found`);
  // Every address the name has must be public: a name with one public and one private address is refused.
  if (!allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) {
    throw new WebhookAddressError("The URL must point to a public address (not loopback, private, link-local or metadata)");
  }
  const [first] = addresses;
  return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
}
