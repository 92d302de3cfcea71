import { describe, expect, test } from "bun:test";
import { canonicalJson, fingerprintOf } from "@ndc/orders";
import { decodeOrderCreateRQ } from "@ndc/messages";
import { decodeEnvelope, parseXml } from "@ndc/xml";
import { loadConfig } from "@ndc/config";
import { orderCreateRQ } from "../orders-http/helpers";

/**
 * The request fingerprint is stored with every operation (idempotency: a retry with the same ids
 * and another body is refused), so its text must never change for a request already stored.
 * canonicalJson was rewritten for speed (issue 22); this is the form it replaced, kept as the
 * reference: every input must encode to the same text.
 */
function reference(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(reference).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${reference(v)}`).join(",")}}`;
}

// eslint-disable-next-line no-sparse-arrays
const holes = [1, , 3];
const samples: unknown[] = [
  null,
  undefined,
  0,
  -0,
  1.5,
  "text with \"quotes\" and \u00e9 and \n",
  true,
  [],
  {},
  [undefined, null, () => 1, Symbol("s")],
  holes,
  { b: 1, a: 2, B: 3, _: 4, "10": 5, "9": 6, é: 7, "a b": 8, z: undefined },
  { nested: { y: [1, { d: 1, c: [2, { f: undefined, e: null }] }], x: new Date(0) } },
  { ["\ud83d\ude00"]: 1, ["\uffff"]: 2, ["\u00ff"]: 3 },
];

describe("canonicalJson", () => {
  test("writes the text the reference form writes, for every sample", () => {
    for (const s of samples) expect(canonicalJson(s)).toBe(reference(s));
  });

  test("and for a decoded OrderCreateRQ: the same fingerprint as before", () => {
    const body = orderCreateRQ({
      shopped: { offerId: "OF-1", itemIds: ["I1", "I2"], totalMinor: 12345, seat: { offerId: "OF-2", itemIds: ["S1", "S2"], priceMinor: 0 } },
      pax: [
        { id: "PAX1", surname: "REF", given: "Ada", doc: { number: "RF0000001" } },
        { id: "PAX2", surname: "REF", given: "Alan" },
      ],
      legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: 12345 }],
      correlationId: "REF-1",
      trxId: "T1",
    });
    const rq = decodeOrderCreateRQ(decodeEnvelope(parseXml(body, loadConfig({ GATEWAY_MODE: "local" }).xml)));
    expect(canonicalJson(rq)).toBe(reference(rq));
    expect(fingerprintOf(rq)).toBe(new Bun.CryptoHasher("sha256").update(reference(rq)).digest("hex"));
  });
});
