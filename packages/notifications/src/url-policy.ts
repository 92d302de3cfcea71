import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { GatewayError } from "@ndc/errors";
import { embeddedIPv4, ipv6Words } from "./embedded-ipv4";

export type GatewayMode = "local" | "sandbox" | "production";

/** Resolves a host name to every address it has (tests replace it to point a name at 10.x). */
export type Resolver = (host: string) => Promise<string[]>;

export const dnsResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

// OWASP API7 (server-side request forgery): addresses a seller's URL may never reach.
const refused = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, including the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  refused.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8],
  ["fd00:ec2::254", 128], // AWS metadata over IPv6 (inside fc00::/7 too; named for the reader)
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): not globally reachable, and its IPv4 sits where the operator's prefix puts it
  ["100::", 64], // discard-only
  ["2001:db8::", 32], // documentation
] as const)
  refused.addSubnet(net, bits, "ipv6");

/**
 * True when the address is loopback, private, link-local, metadata or otherwise not a public
 * unicast address. An IPv6 address is also judged as every IPv4 address it carries (mapped,
 * compatible, NAT64, 6to4, Teredo: embedded-ipv4.ts), so [64:ff9b::127.0.0.1] is loopback.
 * Any textual form is accepted: brackets, a zone id, a dotted-quad tail.
 */
export function isRefusedAddress(address: string): boolean {
  if (isIP(address) === 4) return refused.check(address, "ipv4");
  const words = ipv6Words(address);
  if (!words) return true;
  const hex = words.map((w) => w.toString(16)).join(":");
  return refused.check(hex, "ipv6") || embeddedIPv4(words).some((v4) => refused.check(v4, "ipv4"));
}

const refuse = (why: string) => new GatewayError("subscription_url_refused", { detail: why, element: "url" });

/** Local mode's own-machine exception: http://127.0.0.1:<port> and http://localhost:<port>, nothing else on loopback. */
function isLocalTesterUrl(u: URL): boolean {
  return u.protocol === "http:" && (u.hostname === "127.0.0.1" || u.hostname === "localhost") && u.port !== "";
}

/**
 * Checks a seller's base URL against the SSRF rules: at subscription and again before every
 * delivery attempt (a name may resolve elsewhere later). Throws subscription_url_refused.
 */
export async function checkDeliveryUrl(raw: string, mode: GatewayMode, resolve: Resolver = dnsResolver): Promise<URL> {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw refuse("It is not an absolute URL.");
  }
  if (u.username || u.password) throw refuse("It must not carry credentials.");
  if (u.search || u.hash) throw refuse("It must not carry a query or a fragment.");
  if (mode === "local" && isLocalTesterUrl(u)) return u;
  if (u.protocol !== "https:") throw refuse(mode === "local" ? "It must be https, or http://127.0.0.1:<port> or http://localhost:<port> in local mode." : "It must be https.");
  const host = u.hostname;
  let addresses: string[];
  if (isIP(host) || ipv6Words(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw refuse("Its host name does not resolve.");
    }
  }
  if (addresses.length === 0) throw refuse("Its host name does not resolve.");
  if (addresses.some(isRefusedAddress)) throw refuse("It resolves to a loopback, private, link-local or metadata address.");
  return u;
}
