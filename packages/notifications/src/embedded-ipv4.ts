import { isIP } from "node:net";

/**
 * The eight 16-bit words of an IPv6 address in any textual form (compressed, with a dotted-quad
 * tail, in brackets, with a zone id), or null when it is not one. The WHATWG URL host parser,
 * which fetch itself uses to connect, writes it in one canonical form first: the words read here
 * are the words fetch would dial.
 */
export function ipv6Words(text: string): number[] | null {
  const bare = text.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, "");
  if (isIP(bare) !== 6) return null;
  const canonical = new URL(`http://[${bare}]/`).hostname.slice(1, -1);
  const words = (part: string) => (part === "" ? [] : part.split(":").map((w) => parseInt(w, 16)));
  const [head, tail] = canonical.split("::");
  if (tail === undefined) return words(head!);
  const h = words(head!);
  const t = words(tail);
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

const dotted = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
const zero = (words: number[], from: number, to: number) => words.slice(from, to).every((w) => w === 0);

/**
 * The IPv4 addresses an IPv6 address carries, where a translator, relay or dual stack would
 * deliver a packet sent to it: a public-looking IPv6 address that reaches 127.0.0.1 or
 * 169.254.169.254 is judged as those. Forms (RFC 4291, 6052, 3056, 4380):
 * - IPv4-compatible ::/96 (deprecated, still routed by some stacks), IPv4-mapped ::ffff:0:0/96,
 *   and IPv4-translated ::ffff:0:0:0/96: the last 32 bits;
 * - NAT64 well-known prefix 64:ff9b::/96: the last 32 bits (64:ff9b:1::/48 is refused whole in
 *   url-policy.ts, since where its IPv4 sits depends on the operator's prefix length);
 * - 6to4 2002::/16: bits 16-47;
 * - Teredo 2001::/32: the server at bits 32-63, the client at the last 32 bits inverted.
 */
export function embeddedIPv4(words: number[]): string[] {
  const [w0, w1, w2, w3, w4, w5, w6, w7] = words as [number, number, number, number, number, number, number, number];
  if (zero(words, 0, 5) && (w5 === 0 || w5 === 0xffff)) return [dotted(w6, w7)];
  if (zero(words, 0, 4) && w4 === 0xffff && w5 === 0) return [dotted(w6, w7)];
  if (w0 === 0x64 && w1 === 0xff9b && zero(words, 2, 6)) return [dotted(w6, w7)];
  if (w0 === 0x2002) return [dotted(w1, w2)];
  if (w0 === 0x2001 && w1 === 0) return [dotted(w2, w3), dotted(w6 ^ 0xffff, w7 ^ 0xffff)];
  return [];
}
