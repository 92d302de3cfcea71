import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { commissionAgreementFor, putCommissionAgreement, SANDBOX_AGENCY, SANDBOX_COMMISSION, type CommissionAgreement } from "@ndc/payments";
import { storeErrorCode } from "@ndc/store";
import type { TestGateway } from "../support/gateway";
import { all, blocks } from "../shopping/shop-requests";
import { registerAgency, registerClient } from "@ndc/auth";
import { gateway, ndcAs, orderCreateRQ, orderIdOf, orderRetrieveRQ } from "./helpers";
import { adjustmentsOf, minor, pricedOffer, total, type Priced } from "./adjustments-helpers";

/**
 * PAYCOM over HTTP (spec 4.4 rule 7): the seller agency's agreement (commission_agreements) gives
 * the order's commission, on the order total including every surcharge, disclosed in OrderViewRS.
 * Expected amounts are computed here from the response's own total, in exact minor units.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

/** bp basis points of an amount, rounded half away from zero, in integers only. */
const share = (amount: number, bp: number) => Math.floor((amount * bp * 2 + 10_000) / 20_000);

async function book(p: Priced, id: string, o: { headers?: Record<string, string>; pay?: boolean; pax?: number } = {}) {
  const legs = o.pay === false ? [] : [{ kind: "card" as const, token: "tok_approve_visa", amountMinor: p.totalMinor }];
  const pax = Array.from({ length: o.pax ?? 1 }, (_, i) => ({ id: `PAX${i + 1}`, surname: "TRAVELLER" }));
  const rq = orderCreateRQ({ shopped: p, pax, legs, correlationId: id, trxId: "T1" });
  const r = o.headers ? await ndcAs(t, o.headers, "OrderCreateRQ", rq) : await t.ndc("OrderCreateRQ", rq);
  if (r.status !== 200) throw new Error(r.body);
  return { body: r.body, order: blocks(r.body, "Order")[0]! };
}

const orderTotal = (order: string) => minor(all(blocks(order, "TotalPrice")[0]!, "TotalAmount").at(-1));

function commissionOf(order: string) {
  const c = blocks(order, "Commission");
  expect(c).toHaveLength(1);
  return {
    amount: minor(all(c[0]!, "Amount")[0]),
    code: all(c[0]!, "CommissionCode")[0],
    percent: all(c[0]!, "Percentage")[0],
    base: minor(all(c[0]!, "PercentageAppliedToAmount")[0]),
  };
}

/**
 * Another agency with its own client (helpers' otherSeller registers one fixed IATA number; these
 * tests need several agencies). Returns headers that authenticate as it and a sender using them.
 */
let iata = 22_000_000;
async function seller(agencyId: string) {
  await registerAgency(t.gw.store, { agencyId, iataNumber: String(++iata), name: agencyId });
  const c = await registerClient(t.gw.store, { agency: agencyId, scopes: "ndc:shop ndc:order ndc:order:write ndc:payment" });
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`).toString("base64")}`;
  const res = await t.fetch("/oauth/token", { method: "POST", headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
  expect(res.status).toBe(200);
  const headers = { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
  return { headers, as: { ndc: (message: string, body: string | Uint8Array) => ndcAs(t, headers, message, body as string) } };
}

/** Registers (or replaces) an agency's agreement the way the operator's seeding does. */
const agree = (agencyId: string, a: CommissionAgreement) => t.gw.store.write((tx) => putCommissionAgreement(tx, agencyId, a, Date.UTC(2026, 0, 1)));

describe("PAYCOM on OrderCreateRQ", () => {
  test("the sandbox agency's 5% is on the order total including the fuel surcharge, exactly", async () => {
    expect(await commissionAgreementFor(t.gw.store, SANDBOX_AGENCY)).toEqual(SANDBOX_COMMISSION);
    const p = await pricedOffer(t, { ptcs: ["ADT", "CHD"] });
    const { order } = await book(p, "COM-SANDBOX-1", { pax: 2 });
    const totalMinor = orderTotal(order);
    expect(totalMinor).toBe(p.totalMinor);
    const surcharge = total(adjustmentsOf(blocks(order, "TotalPrice")[0]!).surcharges);
    expect(surcharge).toBe(600);

    const c = commissionOf(order);
    expect(c.base).toBe(totalMinor);
    expect(c.amount).toBe(share(totalMinor, 500));
    expect(c.percent).toBe("5");
    expect(c.code).toBe("SALE");
    // Left out, the surcharge would have given a smaller commission: it was counted.
    expect(c.amount).toBeGreaterThan(share(totalMinor - surcharge, 500));
  });

  test("an order held unpaid discloses it too, and OrderRetrieveRQ reads the same commission", async () => {
    const p = await pricedOffer(t, { brand: "SAVER" });
    const { body, order } = await book(p, "COM-HELD-1", { pay: false });
    expect(all(order, "StatusCode").at(-1)).toBe("ORDWPM");
    const c = commissionOf(order);
    expect(c.amount).toBe(share(orderTotal(order), 500));
    const read = await t.ndc("OrderRetrieveRQ", orderRetrieveRQ(orderIdOf(body), { correlationId: "COM-READ-1" }));
    expect(read.status).toBe(200);
    expect(commissionOf(blocks(read.body, "Order")[0]!)).toEqual(c);
  });

  test("an agency without an agreement: no Commission element, no error, no warning", async () => {
    const { headers, as } = await seller("AGY-NOCOM");
    expect(await commissionAgreementFor(t.gw.store, "AGY-NOCOM")).toBeUndefined();
    const p = await pricedOffer(as);
    const { body, order } = await book(p, "COM-NONE-1", { headers });
    expect(all(order, "StatusCode").at(-1)).toBe("BOOKED");
    expect(blocks(order, "Commission")).toHaveLength(0);
    expect(body).not.toContain("Commission");
    expect(blocks(body, "Warning")).toHaveLength(0);
    expect(blocks(body, "Error")).toHaveLength(0);
  });

  test("a registered tiered agreement: the tier the total reaches applies to the whole total", async () => {
    const { headers, as } = await seller("AGY-TIERED");
    // EUR 0-199.99: 1%; EUR 200.00 and above: 7%.
    await agree("AGY-TIERED", { kind: "tiered", currency: "EUR", tiers: [{ from: 0, basisPoints: 100 }, { from: 20_000, basisPoints: 700 }] });
    const p = await pricedOffer(as, { ptcs: ["ADT", "ADT"] });
    const { order } = await book(p, "COM-TIER-1", { headers, pax: 2 });
    const totalMinor = orderTotal(order);
    expect(totalMinor).toBeGreaterThanOrEqual(20_000);
    const c = commissionOf(order);
    expect(c).toEqual({ amount: share(totalMinor, 700), code: "SALE", percent: "7", base: totalMinor });
  });

  test("the commission is frozen at booking: a later change of agreement leaves the order as sold", async () => {
    const { headers, as } = await seller("AGY-CHANGES");
    await agree("AGY-CHANGES", { kind: "percentage", basisPoints: 250 });
    const p = await pricedOffer(as);
    const { body, order } = await book(p, "COM-FROZEN-1", { headers });
    const sold = commissionOf(order);
    expect(sold.amount).toBe(share(orderTotal(order), 250));
    expect(sold.percent).toBe("2.5");

    await agree("AGY-CHANGES", { kind: "flat", amount: { amount: 1_500, currency: "EUR" } });
    const read = await ndcAs(t, headers, "OrderRetrieveRQ", orderRetrieveRQ(orderIdOf(body), { correlationId: "COM-FROZEN-R" }));
    expect(read.status).toBe(200);
    expect(commissionOf(blocks(read.body, "Order")[0]!)).toEqual(sold);

    // The next order sells under the flat amount: no rate to show, the amount as agreed.
    const next = await book(await pricedOffer(as), "COM-FROZEN-2", { headers });
    const flat = blocks(next.order, "Commission")[0]!;
    expect(minor(all(flat, "Amount")[0])).toBe(1_500);
    expect(all(flat, "Percentage")).toHaveLength(0);
  });
});

describe("commission_agreements rows", () => {
  test("each kind reads back as written", async () => {
    const kinds: CommissionAgreement[] = [
      { kind: "percentage", basisPoints: 975 },
      { kind: "tiered", currency: "USD", tiers: [{ from: 0, basisPoints: 0 }, { from: 50_000, basisPoints: 300 }] },
      { kind: "flat", amount: { amount: 2_000, currency: "GBP" } },
    ];
    for (const a of kinds) {
      await agree("AGY-ROWS", a);
      expect(await commissionAgreementFor(t.gw.store, "AGY-ROWS")).toEqual(a);
    }
  });

  test("a row that holds no valid agreement is an error, never a silent zero", async () => {
    await t.gw.store.write((_tx, raw) =>
      raw.exec(`INSERT INTO commission_agreements (agency_id, kind, parameters, currency, created_at) VALUES ('AGY-BROKEN', 'percentage', '{"basisPoints": 12.5}', NULL, 0)`),
    );
    await expect(commissionAgreementFor(t.gw.store, "AGY-BROKEN")).rejects.toThrow(/basisPoints/);
    // The schema itself refuses a percentage with a currency and a tier without one.
    const refused = await t.gw.store
      .write((_tx, raw) => raw.exec(`INSERT INTO commission_agreements (agency_id, kind, parameters, currency, created_at) VALUES ('AGY-BAD2', 'tiered', '{"tiers": []}', NULL, 0)`))
      .then(() => "written", storeErrorCode);
    expect(refused).toBe("SQLITE_CONSTRAINT_CHECK");
    await expect(agree("AGY-BAD3", { kind: "percentage", basisPoints: 10_001 })).rejects.toThrow(/basisPoints/);
  });
});

test("the discovery document publishes PAYCOM", async () => {
  const res = await t.fetch("/24.4");
  expect(res.status).toBe(200);
  expect(((await res.json()) as { capabilities: string[] }).capabilities).toContain("PAYCOM");
});
