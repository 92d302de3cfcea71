/**
 * The source a token-endpoint failure is counted against. IPv4 (also IPv4-mapped IPv6) by
 * address; IPv6 by its /64, because one host is usually given a whole /64 and could otherwise
 * spray from a fresh address per request. Unknown (in-process requests): one shared source.
 */
export function failureSource(address: string | undefined): string {
  if (!address) return "unknown";
  const a = address.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(a);
  if (mapped) return mapped[1]!;
  if (!a.includes(":")) return a;
  return `${prefix64(a)}::/64`;
}

function prefix64(a: string): string {
  const [head = "", tail] = a.split("::");
  const groups = (s: string) => (s ? s.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])) : []);
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const all = [...h, ...Array(Math.max(0, 8 - h.length - t.length)).fill("0"), ...t];
  return all
    .slice(0, 4)
    .map((g) => (parseInt(g, 16) || 0).toString(16))
    .join(":");
}
