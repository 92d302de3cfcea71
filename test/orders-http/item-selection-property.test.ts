import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import type { ManualClock } from "@ndc/clock";
import { errorCode, type TestGateway } from "../support/gateway";
import { all, blocks } from "../shopping/shop-requests";
import { gateway } from "./helpers";
import {
  distinctTotal,
  freshSeats,
  orderItems,
  orderTotalMinor,
  partyOrderCreateRQ,
  pspCapture,
  pspPaymentCount,
  quotedOffers,
  shopParty,
  type Naming,
  type PoolItem,
  type ShoppedParty,
} from "./item-selection-helpers";

/**
 * fast-check over the real HTTP stack (in-process app): any selection of a two-adult-and-a-child
 * offer's items (flight items, services, a bundle, rides, seats), with repeats and any PaxRefIDs,
 * in either CreateOrder form, is either refused with request_invalid naming the element at fault
 * (an item named twice; a PaxRefID the item was not issued for, repeated in one item, or a second
 * one on a seat), charging nothing, or booked with an Order/TotalPrice and a card capture (at the
 * simulated PSP) equal to the sum of the distinct items' stored prices. Which of the two is
 * decided here from the stored items alone, so a gateway refusing everything fails too.
 */
const RUNS = 40;
let t: TestGateway;
let clock: ManualClock;
let party: ShoppedParty;
beforeAll(async () => {
  ({ t, clock } = await gateway());
  party = await shopParty(t, clock);
});
afterAll(() => t.close());

/** Extras from ServiceListRQ: per-type services, a bundle, a per-passenger ride and the per-vehicle car. */
const EXTRAS = ["BAG1/ADT", "BAG1/CHD", "LNGE/ADT", "BNDL-COMFORT/ADT", "RD-LHR-RAIL/CHD", "RD-LHR-CAR/-"];
const SEATS = 2;

/** A naming by index into the run's pool: flight items first, then extras, then seats. */
interface Pick {
  index: number;
  pax: string[];
}
const pick = (size: number): fc.Arbitrary<Pick> =>
  fc.record({ index: fc.nat(size - 1), pax: fc.array(fc.constantFrom("PAX1", "PAX2", "PAX3", "PAX9"), { minLength: 1, maxLength: 3 }) });
const POOL = 2 + EXTRAS.length + SEATS;
const selection = fc.record({
  form: fc.constantFrom("quoted" as const, "items" as const),
  // The first naming is a flight item: an extra is only sold with its flight.
  first: fc.record({ index: fc.nat(1), pax: pick(POOL).map((p) => p.pax) }),
  rest: fc.array(pick(POOL), { maxLength: 6 }),
});

/** Where the request names a naming, as the gateway reports it. */
function elementOf(form: "quoted" | "items", namings: readonly Naming[], i: number): string {
  if (form === "items") return `Request/CreateOrder/AcceptOrderItemList/CreateOrderItem[${i + 1}]`;
  const offers = [...new Set(namings.map((n) => n.item.offerId))];
  const offer = namings[i]!.item.offerId;
  const k = namings.slice(0, i + 1).filter((n) => n.item.offerId === offer).length;
  return `Request/CreateOrder/AcceptSelectedQuotedOfferList/SelectedPricedOffer[${offers.indexOf(offer) + 1}]/SelectedOfferItem[${k}]`;
}

/**
 * The element the rule refuses, or undefined when the selection is to be booked. The gateway
 * resolves offer by offer (the request's offer order; AcceptOrderItemList: the flight offer's
 * items, then the extras), each item in request order.
 */
function expectedFault(form: "quoted" | "items", namings: readonly Naming[]): string | undefined {
  const order = namings.map((n, i) => ({ n, i }));
  const ranked = form === "quoted" ? [...new Set(namings.map((n) => n.item.offerId))] : [party.flightOfferId];
  const rank = (id: string) => (ranked.includes(id) ? ranked.indexOf(id) : ranked.length);
  order.sort((a, b) => rank(a.n.item.offerId) - rank(b.n.item.offerId) || a.i - b.i);
  const seen = new Set<string>();
  for (const { n, i } of order) {
    const at = elementOf(form, namings, i);
    if (seen.has(n.item.stored.offerItemId)) return `${at}/OfferItemRefID`;
    seen.add(n.item.stored.offerItemId);
    if (form === "items") continue;
    const given = new Set<string>();
    for (const [j, p] of n.pax.entries()) {
      if (given.has(p) || !n.item.stored.paxIds.includes(p) || (n.item.stored.kind === "seat" && j > 0)) return `${at}/PaxRefID[${j + 1}]`;
      given.add(p);
    }
  }
  return undefined;
}

let run = 0;
const refused: number[] = [];
const booked: number[] = [];
test(`any selection (${RUNS} runs over HTTP): refused request_invalid, or booked at the sum of the distinct items' stored prices, captured exactly`, async () => {
  await fc.assert(
    fc.asyncProperty(selection, async (s) => {
      run++;
      // Seats sold by an earlier run are no longer for sale: ask for the map again.
      const pool: PoolItem[] = [...party.flights, ...EXTRAS.map((k) => party.services.get(k)!), ...(await freshSeats(t, clock, party.flightOfferId, SEATS))];
      expect(pool.every(Boolean)).toBe(true);
      const namings: Naming[] = [{ item: pool[s.first.index]!, pax: s.first.pax }, ...s.rest.map((p) => ({ item: pool[p.index]!, pax: p.pax }))];
      const create = s.form === "quoted" ? quotedOffers(namings) : orderItems(namings);
      const expected = distinctTotal(namings);
      const fault = expectedFault(s.form, namings);
      const before = await pspPaymentCount(t);

      const r = await t.ndc("OrderCreateRQ", partyOrderCreateRQ(create, expected, `PROP-${run}`));
      (fault ? refused : booked).push(run);
      if (fault) {
        expect({ status: r.status, code: errorCode(r.body), element: all(r.body, "TagText") }).toEqual({ status: 400, code: "request_invalid", element: [fault] });
        expect(await pspPaymentCount(t)).toBe(before);
        return;
      }
      expect({ status: r.status, errors: blocks(r.body, "Error"), booked: r.body.includes("<cns:StatusCode>BOOKED</cns:StatusCode>") }).toEqual({ status: 200, errors: [], booked: true });
      const ids = all(r.body, "OrderItemID");
      expect(ids).toHaveLength(new Set(namings.map((n) => n.item.stored.offerItemId)).size);
      expect(new Set(ids).size).toBe(ids.length);
      expect(orderTotalMinor(r.body)).toBe(expected);
      expect(await pspCapture(t, r.body)).toEqual({ state: "captured", authorised: expected, captured: expected });
    }),
    { numRuns: RUNS },
  );
  // Both outcomes were exercised, so neither half of the property held vacuously.
  expect(refused.length).toBeGreaterThan(0);
  expect(booked.length).toBeGreaterThan(0);
}, 120_000);
