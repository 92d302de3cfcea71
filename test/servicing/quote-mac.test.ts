import { expect, test } from "bun:test";
import { signQuote, verifyQuote } from "../../packages/orders/src/cancel/quote";
import { signItemsQuote, verifyItemsQuote } from "../../packages/orders/src/cancel/items-quote";

/**
 * A signed quote id's MAC is compared as text: base64url's last character carries spare bits,
 * so another character decoding to the same bytes is still an altered id and is refused
 * (cancel_quote_invalid), for the whole order's quote (CXQ.) and an items quote (CIQ.).
 */
const fieldKey = { key: new Uint8Array(32).fill(7), version: 1 };
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Every other last character whose top two bits (the only ones a 16-byte MAC uses) are the same. */
function sameBytesTwins(id: string): string[] {
  const last = ALPHABET.indexOf(id.at(-1)!);
  return [...ALPHABET].filter((c, i) => i !== last && i >> 4 === last >> 4).map((c) => `${id.slice(0, -1)}${c}`);
}

test("a CXQ. id with its MAC's last character swapped for one decoding to the same bytes is refused", () => {
  const id = signQuote(fieldKey, { orderId: "ORD-1", version: 3, refundMinor: 1000, penaltyMinor: 0, expiresAt: 1_800_000_000_000 });
  expect(verifyQuote(fieldKey, id, "ORD-1").refundMinor).toBe(1000);
  const twins = sameBytesTwins(id);
  expect(twins).toHaveLength(15);
  for (const twin of twins) expect(() => verifyQuote(fieldKey, twin, "ORD-1")).toThrow(expect.objectContaining({ code: "cancel_quote_invalid" }));
});

test("a CIQ. id: the items ride in it, another order cannot use it, and its MAC's twins are refused", () => {
  const ctx = { fieldKey };
  const s = { orderId: "ORD-ABC", version: 2, refundMinor: 2900, expiresAt: 1_800_000_000_000, orderItemIds: ["ORD-ABC-DE8F04C8", "ORD-ABC-0000000A"] };
  const id = signItemsQuote(ctx, s);
  expect(id.length).toBeLessThanOrEqual(128);
  expect(verifyItemsQuote(ctx, id, "ORD-ABC")).toEqual(s);
  expect(() => verifyItemsQuote(ctx, id, "ORD-XYZ")).toThrow(expect.objectContaining({ code: "cancel_quote_invalid" }));
  for (const twin of sameBytesTwins(id)) expect(() => verifyItemsQuote(ctx, twin, "ORD-ABC")).toThrow(expect.objectContaining({ code: "cancel_quote_invalid" }));
  const twelve = Array.from({ length: 12 }, (_, i) => `ORD-6909D5798017-${String(i).padStart(8, "F")}`);
  expect(signItemsQuote(ctx, { ...s, orderId: "ORD-6909D5798017", refundMinor: 9_999_999, orderItemIds: twelve }).length).toBeLessThanOrEqual(128);
});

test("an FCQ. flight-change id: its MAC's twins are refused too (each spelling would be another saga key)", async () => {
  const { signFlightChange, verifyFlightChange } = await import("../../packages/orders/src/servicing/flight/quote");
  const s = { orderId: "ORD-FC1", version: 4, direction: 0, flightKeys: ["XB-100-2027-01-13"], brandCode: "CLASSIC", dueMinor: 3000, expiresAt: 1_800_000_000_000 };
  const id = signFlightChange(fieldKey, s);
  expect(verifyFlightChange(fieldKey, id, "ORD-FC1", "OfferRefID")).toEqual(s);
  for (const twin of sameBytesTwins(id)) expect(() => verifyFlightChange(fieldKey, twin, "ORD-FC1", "OfferRefID")).toThrow(expect.objectContaining({ code: "offer_not_found" }));
});
