import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { grantScopes, registerAgency, registerClient } from "@ndc/auth";
import { errorCode, type TestGateway } from "../support/gateway";
import { tableNames } from "../support/stored-rows";
import { gateway, ndcAs, orderCreateRQ, orderIdOf, shopOffer } from "./helpers";
import { paymentRetryRQ } from "./order-list-helpers";

/**
 * Spec 4.3, 5.5: payment functions on orders need ndc:payment. A token with ndc:order:write but
 * not ndc:payment may book an order held unpaid, but an OrderCreateRQ or OrderChangeRQ carrying
 * PaymentFunctions is 403 insufficient_scope, refused before anything is reserved or written.
 */
let t: TestGateway;
const client = { id: "", secret: "" };
const seller = { clientId: "", agencyId: "AGY-NOPAY" };

async function tokenHeaders(): Promise<Record<string, string>> {
  const basic = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString("base64")}`;
  const res = await t.fetch("/oauth/token", { method: "POST", headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
  expect(res.status).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as { access_token: string }).access_token}` };
}

/** Row count of every table: a refusal that reserved or recorded anything changes one of them. */
async function tableCounts(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const name of await tableNames(t.gw.store)) {
    const [row] = (await t.gw.store.db.all(sql.raw(`SELECT count(*) AS n FROM "${name}"`))) as { n: number }[];
    out[name] = row!.n;
  }
  return out;
}

/** t.ndc adds the sandbox API key; this caller speaks with its own token only. */
const as = (h: Record<string, string>) => ({ ndc: (m: string, body: string | Uint8Array) => ndcAs(t, h, m, body as string) });

function expectPaymentScopeRefusal(r: { status: number; headers: Headers; body: string }): void {
  expect(r.status).toBe(403);
  expect(errorCode(r.body)).toBe("insufficient_scope");
  expect(r.body).toContain("<IATA_OrderViewRS ");
  expect(r.body).toContain("This message needs the scope ndc:payment.");
  expect(r.headers.get("www-authenticate")).toBe('Bearer realm="ndc-gateway", error="insufficient_scope", scope="ndc:payment"');
  expect(r.headers.get("cache-control")).toBe("no-store");
}

beforeAll(async () => {
  ({ t } = await gateway());
  await registerAgency(t.gw.store, { agencyId: seller.agencyId, iataNumber: "87878787", name: "No payment agency" });
  const c = await registerClient(t.gw.store, { agency: seller.agencyId, scopes: "ndc:shop ndc:order ndc:order:write" });
  Object.assign(client, { id: c.clientId, secret: c.clientSecret });
  seller.clientId = c.clientId;
});
afterAll(() => t.close());

describe("PaymentFunctions need ndc:payment", () => {
  let heldOrderId = "";

  test("OrderCreateRQ with a card leg, token without ndc:payment: 403 insufficient_scope, nothing reserved or written", async () => {
    const h = await tokenHeaders();
    const shopped = await shopOffer(as(h));
    const before = await tableCounts();
    const r = await ndcAs(t, h, "OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "np-1", trxId: "t-1", legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }] }));
    expectPaymentScopeRefusal(r);
    expect(await tableCounts()).toEqual(before);
  });

  test("the same token books without PaymentFunctions (held unpaid): ndc:order:write alone suffices", async () => {
    const h = await tokenHeaders();
    const shopped = await shopOffer(as(h));
    const r = await ndcAs(t, h, "OrderCreateRQ", orderCreateRQ({ shopped, correlationId: "np-2", trxId: "t-1" }));
    expect(r.status).toBe(200);
    heldOrderId = orderIdOf(r.body);
    expect((await t.gw.orders.retrieve(heldOrderId, seller)).state).toBe("held_unpaid");
  });

  test("OrderChangeRQ paying that order without ndc:payment: 403 insufficient_scope, the order stays unpaid", async () => {
    const h = await tokenHeaders();
    const before = await tableCounts();
    const r = await ndcAs(t, h, "OrderChangeRQ", paymentRetryRQ(heldOrderId, "200.00", "tok_approve_visa", { trxId: "pay-1" }));
    expectPaymentScopeRefusal(r);
    expect(await tableCounts()).toEqual(before);
    const order = await t.gw.orders.retrieve(heldOrderId, seller);
    expect(order.state).toBe("held_unpaid");
    expect(order.legs).toEqual([]);
  });

  test("once ndc:payment is granted, a new token pays the order", async () => {
    await grantScopes(t.gw.store, client.id, ["ndc:payment"]);
    const h = await tokenHeaders();
    const order = await t.gw.orders.retrieve(heldOrderId, seller);
    const amount = (order.legs.reduce((s, l) => s + l.amountMinor, 0) || order.totalMinor) / 100;
    const r = await ndcAs(t, h, "OrderChangeRQ", paymentRetryRQ(heldOrderId, amount.toFixed(2), "tok_approve_visa", { trxId: "pay-2" }));
    expect(r.status).toBe(200);
    expect(r.body).toContain("<cns:StatusCode>BOOKED</cns:StatusCode>");
  });
});
