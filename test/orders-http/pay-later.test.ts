import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { tables } from "@ndc/store";
import { eq } from "drizzle-orm";
import { errorCode, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";
import { assertSchemaValid } from "../support/xsd";
import { all, blocks } from "../shopping/shop-requests";
import { decimal, gateway, orderCreateRQ, orderIdOf, orderRetrieveRQ, shopOffer, type Shopped } from "./helpers";
import { paymentRetryRQ } from "./order-list-helpers";

/**
 * Issue 20 item 3: paying later by a named method. An OrderCreateRQ whose PaymentFunctions names
 * only the method the passenger will pay by (OfferAssociation + PaymentMethodCriteria, no
 * PaymentProcessingDetails: 24.4 PaymentFunctionsCreateType) is held for payment (ORDWPM) with
 * the method recorded on the order and shown in PAYSUM as PENDING; OrderChangeRQ pays it later,
 * by that method or another. Requests are checked against IATA's XSDs; every answer is too (the
 * test gateway runs xmllint on each).
 */
let t: TestGateway;
let clock: ManualClock;
beforeAll(async () => {
  ({ t, clock } = await gateway());
});
afterAll(() => t.close());

/** The PaymentFunctions of an OrderCreateRQ naming a method for later, the way IATA's examples write it. */
function namedMethod(offerId: string, typeCode: string, brand?: string): string {
  return (
    `<cns:PaymentFunctions><cns:OfferAssociation><cns:OfferRefID>${offerId}</cns:OfferRefID><cns:OwnerCode>XB</cns:OwnerCode></cns:OfferAssociation>` +
    `<cns:PaymentMethodCriteria>${brand ? `<cns:PaymentBrandCode>${brand}</cns:PaymentBrandCode>` : ""}<cns:PaymentTypeCode>${typeCode}</cns:PaymentTypeCode></cns:PaymentMethodCriteria></cns:PaymentFunctions>`
  );
}

function createNamed(shopped: Shopped, id: string, pf: string): string {
  const rq = orderCreateRQ({ shopped, correlationId: `PAYLATER-${id}`, trxId: "TRX-1", paymentFunctionsXml: pf });
  assertSchemaValid(rq);
  return rq;
}

const pendingEntries = (body: string) => blocks(body, "PaymentFunctions").filter((pf) => all(pf, "PaymentStatusCode")[0] === "PENDING");
const pspRequests = async () => (await t.gw.store.db.select().from(tables.pspSimRequests)).length;
const legsOf = async (orderId: string) => t.gw.store.db.select().from(tables.paymentLegs).where(eq(tables.paymentLegs.orderId, orderId));

function evictAll(): void {
  clock.advance(t.gw.config.actors.idleMs + 1);
  t.gw.actors.evictIdle();
  expect(t.gw.actors.size).toBe(0);
}

describe("OrderCreateRQ naming the method it will pay by", () => {
  test("held for payment with the card named, shown PENDING, kept across eviction, then paid by that card", async () => {
    const shopped = await shopOffer(t, { n: 0 });
    const before = await pspRequests();
    const created = await t.ndc("OrderCreateRQ", createNamed(shopped, "CC", namedMethod(shopped.offerId, "CC", "VI")));
    expect(created.status).toBe(200);
    expect(all(created.body, "StatusCode")).toContain("ORDWPM");
    expect(all(created.body, "PaymentTimeLimitDateTime").length).toBeGreaterThan(0);
    const orderId = orderIdOf(created.body);

    // The intent, in PAYSUM: the amount due, the method named, nothing taken.
    const [pending, ...more] = pendingEntries(created.body);
    expect(more).toHaveLength(0);
    expect(all(pending!, "Amount")[0]).toBe(decimal(shopped.totalMinor));
    expect(all(pending!, "OrderRefID")[0]).toBe(orderId);
    expect(all(pending!, "CardBrandCode")).toEqual(["VI"]);
    expect(all(pending!, "MaskedCardID")).toEqual([]);
    expect(all(pending!, "DescText")[0]).toBe(`Not yet paid, to be paid by Payment card VI (CC): ${decimal(shopped.totalMinor)} EUR.`);
    // Nothing went to the PSP and no leg exists.
    expect(await pspRequests()).toBe(before);
    expect(await legsOf(orderId)).toHaveLength(0);

    // The same answer again, from the order as stored (no actor in memory).
    evictAll();
    const read = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderId));
    expect(pendingEntries(read.body).map((p) => all(p, "CardBrandCode"))).toEqual([["VI"]]);

    // A declined attempt rebuilds the order from its journal: the named method is still there.
    const amount = decimal(shopped.totalMinor);
    const declined = await t.ndc("OrderChangeRQ", paymentRetryRQ(orderId, amount, "tok_decline", { correlationId: "PAYLATER-CC-PAY", trxId: "pay-1" }));
    expect(declined.status).toBe(200);
    expect(all(declined.body, "StatusCode")).toContain("PAYMENT_DECLINED");
    expect(pendingEntries(declined.body)).toHaveLength(1);

    const paid = await t.ndc("OrderChangeRQ", paymentRetryRQ(orderId, amount, "tok_approve_visa", { correlationId: "PAYLATER-CC-PAY", trxId: "pay-2" }));
    expect(paid.status).toBe(200);
    expect(all(paid.body, "StatusCode")).toContain("BOOKED");
    expect(pendingEntries(paid.body)).toHaveLength(0);
    const captured = blocks(paid.body, "PaymentFunctions").filter((pf) => all(pf, "PaymentStatusCode")[0] === "CAPTURED");
    expect(captured.map((pf) => all(pf, "CardBrandCode")[0])).toEqual(["VI"]);
    expect(all(captured[0]!, "Amount")[0]).toBe(amount);
  });

  test("a settlement plan named, paid later by a card: the named method does not bind", async () => {
    const shopped = await shopOffer(t, { n: 1 });
    const created = await t.ndc("OrderCreateRQ", createNamed(shopped, "CA", namedMethod(shopped.offerId, "CA")));
    expect(created.status).toBe(200);
    const [pending] = pendingEntries(created.body);
    expect(all(pending!, "PaymentTypeCode")).toEqual(["CA"]);
    expect(all(pending!, "DescText")[0]).toStartWith("Not yet paid, to be paid by BSP cash (CA):");
    const orderId = orderIdOf(created.body);
    const paid = await t.ndc("OrderChangeRQ", paymentRetryRQ(orderId, decimal(shopped.totalMinor), "tok_approve_mastercard", { correlationId: "PAYLATER-CA-PAY" }));
    expect(all(paid.body, "StatusCode")).toContain("BOOKED");
    expect(pendingEntries(paid.body)).toHaveLength(0);
    expect(blocks(paid.body, "PaymentFunctions").map((pf) => all(pf, "PaymentStatusCode")[0])).toEqual(["CAPTURED"]);
  });

  test("the same request again is the same held order (idempotent on its ids)", async () => {
    const shopped = await shopOffer(t, { n: 2 });
    const rq = createNamed(shopped, "AGAIN", namedMethod(shopped.offerId, "CC"));
    const first = await t.ndc("OrderCreateRQ", rq);
    const again = await t.ndc("OrderCreateRQ", rq);
    expect(again.body).toBe(first.body);
    // No brand named: the card entry says so by having none.
    expect(pendingEntries(first.body).map((p) => all(p, "CardBrandCode"))).toEqual([[]]);
  });
});

describe("refusals name the rule and the element", () => {
  const refused = async (rq: string) => {
    const r = await t.ndc("OrderCreateRQ", rq);
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("request_invalid");
    return all(r.body, "TagText")[0];
  };

  test("paying now and naming a method for later in one request", async () => {
    const shopped = await shopOffer(t, { n: 3 });
    const rq = orderCreateRQ({ shopped, correlationId: "PAYLATER-MIXED", trxId: "TRX-1", legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], paymentFunctionsXml: namedMethod(shopped.offerId, "CC") });
    assertSchemaValid(rq);
    expect(await refused(rq)).toBe("Request/PaymentFunctions[2]/PaymentProcessingDetails");
  });

  test("a method the airline does not take later", async () => {
    const shopped = await shopOffer(t, { n: 3 });
    expect(await refused(createNamed(shopped, "EP", namedMethod(shopped.offerId, "EP")))).toBe("Request/PaymentFunctions[1]/PaymentMethodCriteria/PaymentTypeCode");
  });

  test("an OfferAssociation naming an offer the request does not accept", async () => {
    const shopped = await shopOffer(t, { n: 3 });
    expect(await refused(createNamed(shopped, "STRAY", namedMethod("OFR-NOT-THIS-ONE", "CC")))).toBe("Request/PaymentFunctions[1]/OfferAssociation[1]/OfferRefID");
  });

  test("OrderChangeRQ naming a method without paying pays nothing: refused", async () => {
    const shopped = await shopOffer(t, { n: 4 });
    const created = await t.ndc("OrderCreateRQ", createNamed(shopped, "CHG", namedMethod(shopped.offerId, "CC")));
    const orderId = orderIdOf(created.body);
    const pf = `<cns:PaymentFunctions><cns:OrderAssociation><cns:OrderRefID>${orderId}</cns:OrderRefID></cns:OrderAssociation><cns:PaymentMethodCriteria><cns:PaymentTypeCode>CC</cns:PaymentTypeCode></cns:PaymentMethodCriteria></cns:PaymentFunctions>`;
    const rq = ndcRequest("OrderChangeRQ", { request: `<cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>${pf}`, correlationId: "PAYLATER-CHG", trxId: "t" });
    assertSchemaValid(rq);
    const r = await t.ndc("OrderChangeRQ", rq);
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("request_invalid");
    expect(all(r.body, "TagText")[0]).toBe("Request/PaymentFunctions[1]/PaymentProcessingDetails");
  });
});
