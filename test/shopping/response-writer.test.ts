import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import {
  airShoppingResponseTree,
  decodeAirShoppingRQ,
  decodeOfferPriceRQ,
  decodeSeatAvailabilityRQ,
  encodeAirShoppingRS,
  encodeOfferPriceRS,
  encodeSeatAvailabilityRS,
  offerPriceResponseTree,
  type MessageHandler,
  type OfferPriceView,
} from "@ndc/messages";
import { OfferRepository, price, PromotionCriteria, SeatAvailability, shop, type ShoppingContext } from "@ndc/shopping";
import { responseDocument, serialize, type Envelope } from "@ndc/xml";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { seatAvailabilityRQ } from "./seat-availability-helpers";
import { airShoppingRQ, all, blocks, day, offerPriceRQ, type PriceOpts } from "./shop-requests";

/**
 * AirShoppingRS and OfferPriceRS are written straight to bytes by a streaming writer (issue 8,
 * section 3). This proves it writes exactly the bytes of the tree encoder it replaced, on real
 * answers over the real HTTP stack: the gateway here answers both messages through handlers that
 * encode each view both ways, record whether the two texts are equal, and send the writer's
 * (which startTestGateway checks against IATA's XSD). The answers together carry every element
 * kind the two writers write (checked at the end), warnings, localisation and rich media.
 */
let t: TestGateway;
const clock = new ManualClock(Date.UTC(2026, 10, 21, 9, 0, 0));
const compared: { message: string; equal: boolean; bytes: number }[] = [];
const answers: string[] = [];
const priceViews: OfferPriceView[] = [];
/** Each answer's whole document as the tree path wrote it (envelope and all, as text): what the pipeline must send. */
const documents: string[] = [];
const ctxOf = (e: Envelope) => ({ correlationId: e.payload.correlationId, trxId: e.payload.trxId, simulated: true, carrier: t.gw.config.airline.designator });

function context(): ShoppingContext {
  const gw = t.gw;
  return { supply: gw.supply, offers: new OfferRepository(gw.store, clock), clock, settings: gw.config.shopping, promotionCriteria: new PromotionCriteria(gw.store), ownerCode: gw.config.airline.designator };
}

const handlers = new Map<string, MessageHandler>([
  [
    "AirShoppingRQ",
    async ({ spec, envelope, seller }) => {
      const view = await shop(context(), decodeAirShoppingRQ(envelope), seller);
      documents.push(responseDocument(spec.response, airShoppingResponseTree(view), ctxOf(envelope)));
      const tree = serialize(airShoppingResponseTree(view));
      const response = encodeAirShoppingRS(view);
      const written = serialize(response);
      compared.push({ message: "AirShoppingRS", equal: tree === written, bytes: written.length });
      answers.push(written);
      return { response };
    },
  ],
  [
    "OfferPriceRQ",
    async ({ spec, envelope, seller }) => {
      const view = await price(context(), decodeOfferPriceRQ(envelope), seller);
      documents.push(responseDocument(spec.response, offerPriceResponseTree(view), ctxOf(envelope)));
      priceViews.push(view);
      const tree = serialize(offerPriceResponseTree(view));
      const response = encodeOfferPriceRS(view);
      const written = serialize(response);
      compared.push({ message: "OfferPriceRS", equal: tree === written, bytes: written.length });
      answers.push(written);
      return { response };
    },
  ],
  [
    // Only to obtain seat offers to price (no seat is held in this test, so none is taken).
    "SeatAvailabilityRQ",
    async ({ envelope, seller }) => {
      const seats = new SeatAvailability({ ...context(), inventory: { takenSeats: async () => new Set<string>() } });
      return { response: encodeSeatAvailabilityRS(await seats.seatMaps(decodeSeatAvailabilityRQ(envelope), seller)) };
    },
  ],
]);

beforeAll(async () => {
  t = await startTestGateway({ SHOP_ANSWER_CACHE: "off", SHOP_PROMOTIONS_TIMEOUT_MS: "50" }, clock, handlers);
});
afterAll(() => t.close());

const start = () => t.gw.supply.startDate;
const PAX3: [string, string][] = [["P1", "ADT"], ["P2", "ADT"], ["P3", "CHD"]];

async function shopped(o: Parameters<typeof airShoppingRQ>[0]) {
  const before = compared.length;
  const r = await t.ndc("AirShoppingRQ", airShoppingRQ(o));
  expect(r.status).toBe(200);
  expect(compared.length).toBe(before + 1);
  expect(compared.at(-1)!.equal).toBe(true);
  // The pipeline writes the envelope around the Response's bytes: the same document as the text path.
  expect(r.body).toBe(documents.at(-1)!);
  return r.body;
}

async function priced(body: string) {
  const before = compared.length;
  const r = await t.ndc("OfferPriceRQ", body);
  expect(r.status).toBe(200);
  expect(compared.length).toBe(before + 1);
  expect(compared.at(-1)!.equal).toBe(true);
  // The pipeline writes the envelope around the Response's bytes: the same document as the text path.
  expect(r.body).toBe(documents.at(-1)!);
  return r.body;
}

describe("AirShoppingRS: the streaming writer writes the tree encoder's bytes", () => {
  test("return trip, 2 adults and a child, with services (a-la-carte offers, rich media)", async () => {
    const legs = [{ from: "LHR", to: "FRA", date: day(start(), 30) }, { from: "FRA", to: "LHR", date: day(start(), 37) }];
    const body = await shopped({ legs, pax: PAX3, criteria: [{ rfic: "C" }, { taxonomy: ["0300"] }] });
    expect(blocks(body, "ALaCarteOffer").length).toBeGreaterThan(0);
  });

  test("localised (German, with the fallback warning), multi-city, infant, JPY, business cabin, an unknown language, an empty group", async () => {
    const d = (n: number) => day(start(), n);
    await shopped({ legs: [{ from: "LHR", to: "CDG", date: d(20) }], pax: PAX3, langUsage: ["de"], criteria: [{ rfisc: ["0CC"] }] });
    await shopped({ legs: [{ from: "LHR", to: "FRA", date: d(10) }, { from: "FRA", to: "CDG", date: d(12) }, { from: "CDG", to: "LHR", date: d(14) }] });
    await shopped({ legs: [{ from: "LHR", to: "FRA", date: d(15) }], pax: [["A", "ADT"], ["I", "INF"]], currency: "JPY" });
    await shopped({ legs: [{ from: "LHR", to: "FRA", date: d(16), cabin: "C" }], primaryLang: "zh-Hant" });
    await shopped({ legs: [{ from: "LHR", to: "FRA", date: d(17) }], langUsage: ["sw"], currency: "USD" });
    await shopped({ legs: [{ from: "LHR", to: "FRA", date: d(400) }] });
  });
});

describe("OfferPriceRS: the streaming writer writes the tree encoder's bytes", () => {
  test("flight items with adjustments, an extra, a seat, warnings, in EUR, GBP and German", async () => {
    for (const [currency, lang] of [["EUR", undefined], ["GBP", "de"]] as const) {
      const shop = await shopped({ legs: [{ from: "LHR", to: "FRA", date: day(start(), 30) }], pax: PAX3, currency, langUsage: lang ? [lang] : undefined, criteria: [{ rfisc: ["0CC"] }] });
      const offers = blocks(shop, "Offer");
      for (const brand of ["FLEX", "SAVER", "COMFORT"]) {
        const idx = offers.findIndex((o) => o.includes(`<cns:PriceClassRefID>PC-${brand}</cns:PriceClassRefID>`));
        if (idx < 0) continue;
        const offer = offers[idx]!;
        const flight = { offerId: all(offer, "OfferID")[0]!, items: blocks(offer, "OfferItem").map((i) => ({ id: all(i, "OfferItemID")[0]!, pax: all(blocks(i, "FareDetail")[0]!, "PaxRefID") })) };
        const alc = blocks(shop, "ALaCarteOffer")[idx]!;
        const bag = blocks(alc, "OfferItem").find((i) => all(i, "PaxRefID").includes("P1"))!;
        const sel: PriceOpts["offers"] = [flight, { offerId: all(alc, "OfferID")[0]!, items: [{ id: all(bag, "OfferItemID")[0]!, pax: all(bag, "PaxRefID"), qty: 1 }] }];
        await priced(offerPriceRQ({ offers: [flight], currency, langUsage: lang ? [lang] : undefined }));
        await priced(offerPriceRQ({ offers: sel, currency, langUsage: lang ? [lang] : undefined }));
        const sa = await t.ndc("SeatAvailabilityRQ", seatAvailabilityRQ({ offerId: flight.offerId }));
        expect(sa.status).toBe(200);
        const seats = blocks(sa.body, "ALaCarteOffer")[0]!;
        // A free seat and the seat item it is sold as, from the seat map.
        const free = blocks(sa.body, "Seat").find((b) => b.includes("<cns:OccupationStatusCode>F<") && b.includes("<cns:OfferItemRefID>"))!;
        const seat: [number, string] = [Number(all(free, "RowNumber")[0]), all(free, "ColumnID")[0]!];
        const seatItem = { id: all(free, "OfferItemRefID")[0]!, pax: ["P1"], seat };
        await priced(offerPriceRQ({ offers: [flight, { offerId: all(seats, "OfferID")[0]!, items: [seatItem] }], currency }));
      }
    }
  });
});

test("what the domain does not produce today (OtherOffers, FareBasisCode, a warning's TagText, absent values): same bytes", () => {
  const real = priceViews.find((v) => v.pricedOffer.items.some((i) => i.fare))!;
  const withAll: OfferPriceView = {
    ...real,
    otherALaCarteOffers: [
      { offerId: "ALC-1", ownerCode: "XB", description: "Extras <for> \"you\" & yours", items: [] },
      { offerId: "ALC-2", ownerCode: "XB", expiresAt: "2026-12-01T00:00:00Z", items: [{ offerItemId: "I1", serviceId: "S1", serviceDefinitionId: "SD1", paxIds: ["P1"], priceClassIds: ["PC-FLEX"], unitPrice: real.pricedOffer.items[0]!.price, flights: { kind: "datedOperatingLegs", ids: ["L1"] } }] },
    ],
    pricedOffer: {
      ...real.pricedOffer,
      items: real.pricedOffer.items.map((i) => (i.fare ? { ...i, mandatory: true, fare: { ...i.fare, components: i.fare.components.map((f) => ({ ...f, fareBasisCode: "YFLEX", cabin: { code: "5" } })) } } : i)),
    },
    warnings: [...real.warnings, { code: "X1", text: "Free text with <markup> & \u0001 a control character.", element: "Request/PricedOffer" }, { code: "offer_not_found", element: "Request/X", detail: "d" }],
  };
  expect(serialize(encodeOfferPriceRS(withAll))).toBe(serialize(offerPriceResponseTree(withAll)));
  const text = serialize(encodeOfferPriceRS(withAll));
  for (const k of ["OtherOffers", "FareBasisCode", "TagText", "MandatoryInd"]) expect(text).toContain(`<cns:${k}>`);
});

test("the compared answers cover every element kind the writers write", () => {
  expect(compared.length).toBeGreaterThan(10);
  expect(compared.every((c) => c.equal)).toBe(true);
  const seen = new Set(answers.flatMap((a) => [...a.matchAll(/<(?:cns:)?([A-Za-z_]+)[ />]/g)].map((m) => m[1]!)));
  const kinds = [
    // offers and items
    "ALaCarteOffer", "Offer", "PricedOffer", "OfferItem", "Eligibility", "BaggageAssociations", "JourneyOverview", "JourneyPriceClass",
    "OfferExpirationTimeLimitDateTime", "PriceGuaranteeTimeLimitDateTime", "FareDetail", "FareComponent", "CabinType", "Service",
    "OfferServiceAssociation", "PaxJourneyRef", "ServiceDefinitionRef", "SeatAssignment", "OfferFlightAssociations", "RichMedia", "AirlineTaxonomy",
    // conditions and prices
    "CancelRestrictions", "ChangeRestrictions", "Refund", "Price", "TotalPrice", "UnitPrice", "BaseAmount", "Discount", "DiscountContext",
    "DiscountPercent", "Surcharge", "Breakdown", "TaxSummary", "Tax", "TotalTaxAmount",
    // the rest of the Response
    "DataLists", "MatchedOfferQty", "CarrierOffers", "Processing", "CurParameter", "LangUsage", "Warning",
  ];
  expect(kinds.filter((k) => !seen.has(k))).toEqual([]);
});
