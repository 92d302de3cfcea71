import { afterAll, beforeAll, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { errorCode } from "../support/gateway";
import { validateXml } from "../support/xsd";
import { gateway, ndcAs, orderCreateRQ, orderIdOf, shopOffer, decimal } from "../orders-http/helpers";
import type { TestGateway } from "../support/gateway";
import { call, otherSellerToken, startReceiver, type Receiver } from "../notifications/helpers";
import { inAnyOrder, paymentClearanceRQ, pushesOf, textOf } from "./helpers";
import { acceptCancelRQ, quote, sellerOf } from "../servicing/cancel-helpers";
import { releaseAsSagasDo } from "../payments/helpers";
import { refuseInserts } from "../support/triggers";

/**
 * Issue 10, clearance (spec 2.6, 3, 4.7, 6): a settlement-plan payment captured at booking is
 * requested for clearance (STTCAP), cleared once (by the Clearance Manager's sweep or by
 * PaymentClearanceRQ), cancelled by a refund before clearing (STTCAN); every event pushes an
 * XSD-valid, signed IATA_PaymentClearanceNotif written with the change.
 */
let t: TestGateway;
let clock: ManualClock;
let rx: Receiver;
let key: string;
let secret: string;
beforeAll(async () => {
  ({ t, clock } = await gateway());
  key = t.gw.sandbox!.api_key;
  rx = startReceiver();
  const sub = await call(t, "POST", "/notifications/subscriptions", key, { url: rx.url, events: ["payment.clearance", "order.closed"] });
  expect(sub.status).toBe(201);
  secret = sub.json.secret;
});
afterAll(async () => {
  rx.stop();
  await t.close();
});

const run = async (job: string) => (await call(t, "POST", "/sandbox/scheduler/run", key, { job })).json.result;

/** Books one passenger paying everything through the sandbox agency's CA settlement account, over HTTP (the n-th shopped offer). */
async function bookSettled(tag: string, n = 0): Promise<{ orderId: string; totalMinor: number }> {
  const shopped = await shopOffer(t, { n });
  const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "settlement", method: "CA", amountMinor: shopped.totalMinor }], seller: t.gw.sandbox!.iata_number, correlationId: `clr-${tag}`, trxId: `trx-${tag}` }));
  if (r.status !== 200) throw new Error(r.body);
  expect(r.status).toBe(200);
  return { orderId: orderIdOf(r.body), totalMinor: shopped.totalMinor };
}

/** The pushed clearances of one order so far, in order: [StatusCode, ClearanceID, amount]. */
async function clearancePushes(orderId: string): Promise<[string, string, string][]> {
  // A dispatch sends at most 4 per subscription at once: until nothing is due.
  while ((await run("notifications.dispatch")).started > 0);
  const ids = new Set((await t.gw.store.db.all(`SELECT clearance_id FROM payment_clearances WHERE order_id = '${orderId}'`) as { clearance_id: string }[]).map((r) => r.clearance_id));
  return pushesOf(rx, "PaymentClearanceNotif", secret)
    .filter((b) => ids.has(textOf(b, "ClearanceID")!))
    .map((b) => [textOf(b, "StatusCode")!, textOf(b, "ClearanceID")!, textOf(b, "NetClearanceAmount")!]);
}

test("captured at booking: one clearance requested for exactly the amount (STTCAP), pushed; the Clearance Manager's sweep clears it once", async () => {
  const { orderId, totalMinor } = await bookSettled("sweep");
  const pushed = await clearancePushes(orderId);
  expect(pushed.length).toBe(1);
  const [status, clearanceId, amount] = pushed[0]!;
  expect(status).toBe("ACCPT");
  expect(clearanceId).toMatch(new RegExp(`^2026999[A-Z0-9]{8}$`));
  expect(amount).toBe(decimal(totalMinor));
  const body = pushesOf(rx, "PaymentClearanceNotif", secret).find((b) => b.includes(clearanceId))!;
  // Spec 2.6's fields, all there.
  for (const el of ["ClearancePayeeData", "ClearancePayerData", "AirlineAccountingCode", "AirlineDesigCode", "PaymentBrandCode", "PaymentCommitmentDateTime", "ProcessRuleCode", "RemittanceDate", "SettlementDate", "ClearanceCount"]) expect(body).toContain(`${el}>`);
  expect(body).toContain(`<cns:NetClearanceAmount CurCode="EUR">${decimal(totalMinor)}</cns:NetClearanceAmount>`);
  expect(body).toContain("<cns:PaymentBrandCode>IB</cns:PaymentBrandCode>");
  expect(textOf(body, "PaymentCommitmentDateTime")).toBe(new Date(clock.now()).toISOString());
  expect(textOf(body, "RemittanceDate")! < textOf(body, "SettlementDate")!).toBe(true);

  expect(await run("payments.clearance")).toEqual({ cleared: 1 });
  expect(await run("payments.clearance")).toEqual({ cleared: 0 });
  const after = await clearancePushes(orderId);
  expect(after.map((p) => p[0])).toEqual(["ACCPT", "FLSTL"]);
  expect(after[1]![1]).toBe(clearanceId);
  // Cleared: PaymentClearanceRQ for it now is a second clearance of one payment.
  const again = await t.ndc("PaymentClearanceRQ", paymentClearanceRQ({ clearanceId, amount: decimal(totalMinor) }));
  expect(again.status).toBe(409);
  expect(errorCode(again.body)).toBe("clearance_already_cleared");
  expect(again.body).toContain("<cns:TagText>Clearance/ClearanceData/ClearanceID</cns:TagText>");
}, 30_000);

test("PaymentClearanceRQ (schema-valid, no DistributionChain) clears the caller's payment for exactly its amount; refusals name the element", async () => {
  const { orderId, totalMinor } = await bookSettled("rq");
  const [[, clearanceId]] = (await clearancePushes(orderId)) as [[string, string, string]];
  const body = (amount: string, o: Partial<Parameters<typeof paymentClearanceRQ>[0]> = {}) => paymentClearanceRQ({ clearanceId, amount, ...o });
  expect(validateXml(body(decimal(totalMinor)), "IATA_PaymentClearanceRQ.xsd").ok).toBe(true);

  // A wrong amount, one minor unit off either way, or another currency.
  for (const [amount, currency] of [[decimal(totalMinor - 1), "EUR"], [decimal(totalMinor + 1), "EUR"], [decimal(totalMinor), "USD"]] as const) {
    const r = await t.ndc("PaymentClearanceRQ", body(amount, { currency }));
    expect(r.status).toBe(409);
    expect(errorCode(r.body)).toBe("clearance_amount_mismatch");
    expect(r.body).toContain("<cns:TagText>Clearance/ClearanceData/NetClearanceAmount</cns:TagText>");
  }
  // Another seller's payment is answered exactly as a missing one.
  const other = await otherSellerToken(t, "AGY-CLR", "77777777", "ndc:settle");
  const theirs = await ndcAs(t, { authorization: other }, "PaymentClearanceRQ", body(decimal(totalMinor)));
  const missing = await t.ndc("PaymentClearanceRQ", body(decimal(totalMinor), { clearanceId: "2026999ZZZZZZZZ" }));
  expect([theirs.status, missing.status]).toEqual([404, 404]);
  expect(errorCode(theirs.body)).toBe("clearance_not_found");
  expect(theirs.body.replace(/<cns:CorrelationID>[^<]*</, "")).toBe(missing.body.replace(/<cns:CorrelationID>[^<]*</, ""));
  // Without ndc:settle the message is not processed at all.
  const noSettle = await otherSellerToken(t, "AGY-NOSETTLE", "77777778", "ndc:order ndc:payment");
  const refused = await ndcAs(t, { authorization: noSettle }, "PaymentClearanceRQ", body(decimal(totalMinor)));
  expect([refused.status, errorCode(refused.body)]).toEqual([403, "insufficient_scope"]);
  // Schema-level refusals at decode, each naming its element.
  const shape: [string, string, string][] = [
    ["a ClearanceID outside ClearanceID_Type", body(decimal(totalMinor), { clearanceId: "ABC" }), "Clearance/ClearanceData/ClearanceID"],
    ["a ClearanceCount that does not count", body(decimal(totalMinor), { count: 2 }), "ClearanceCount"],
    ["two Clearances", body(decimal(totalMinor), { clearances: 2 }), "Clearance[2]"],
    ["a payee that is another airline", body(decimal(totalMinor), { payeeDesig: "ZZ" }), "Clearance/ClearanceData/ClearancePayeeData/ClearancePayee/Carrier"],
    ["an amount that is not a decimal", body("12,00"), "Clearance/ClearanceData/NetClearanceAmount"],
    ["a payer IATA_Number that is not a number", body(decimal(totalMinor), { payerIata: "AGY1" }), "Clearance/ClearanceData/ClearancePayerData/ClearancePayer/TravelAgency/IATA_Number"],
    ["a DistributionChain (not in the 2022.1 root)", body(decimal(totalMinor)).replace("<Clearance>", "<DistributionChain/><Clearance>"), "DistributionChain"],
  ];
  for (const [what, xml, element] of shape) {
    const r = await t.ndc("PaymentClearanceRQ", xml);
    expect({ what, status: r.status, code: errorCode(r.body) }).toEqual({ what, status: 400, code: "request_invalid" });
    expect(r.body).toContain(`<cns:TagText>${element}</cns:TagText>`);
  }
  // None of that touched the clearance: still requested.
  expect(await t.gw.store.db.all(`SELECT status FROM payment_clearances WHERE clearance_id = '${clearanceId}'`)).toEqual([{ status: "requested" }]);

  const ok = await t.ndc("PaymentClearanceRQ", body(decimal(totalMinor), { correlationId: "clr-ok" }));
  expect(ok.status).toBe(200);
  expect(ok.body).toContain("<IATA_PaymentClearanceRS ");
  expect(ok.body).toContain(`<cns:ClearanceID>${clearanceId}</cns:ClearanceID>`);
  expect(ok.body).toContain("<cns:StatusCode>FLSTL</cns:StatusCode>");
  expect(ok.body).toContain("<cns:CorrelationID>clr-ok</cns:CorrelationID>");
  expect((await clearancePushes(orderId)).map((p) => p[0])).toEqual(["ACCPT", "FLSTL"]);
  // The sweep finds nothing left; a second request is refused.
  expect(await run("payments.clearance")).toEqual({ cleared: 0 });
  const second = await t.ndc("PaymentClearanceRQ", body(decimal(totalMinor)));
  expect(errorCode(second.body)).toBe("clearance_already_cleared");
  // Discovery: the message is live, and the clearance event is produced.
  const doc = (await (await t.fetch("/24.4")).json()) as { messages: { name: string; status: string }[] };
  expect(doc.messages.find((m) => m.name === "PaymentClearanceRQ")?.status).toBe("live");
}, 30_000);

test("refunded before clearing: the clearance is cancelled (STTCAN) and what is kept is requested again; a cancelled one is refused", async () => {
  const { orderId, totalMinor } = await bookSettled("refund");
  const [[, first]] = (await clearancePushes(orderId)) as [[string, string, string]];
  const ledger = t.gw.orders.ctx.payments.ledger;
  const leg = (await ledger.legs(orderId)).find((l) => l.kind === "settlement")!;
  await releaseAsSagasDo(t.gw.orders.ctx.payments, `${orderId}/test-refund`, async () => [{ legId: leg.legId, amount: 5_000 }])();
  const pushed = await clearancePushes(orderId);
  expect(inAnyOrder(pushed.map(([s, , a]) => [s, a]))).toEqual(inAnyOrder([["ACCPT", decimal(totalMinor)], ["CNCLD", decimal(totalMinor)], ["ACCPT", decimal(totalMinor - 5_000)]]));
  expect(pushed.find(([s]) => s === "CNCLD")![1]).toBe(first);
  const kept = pushed.find(([s, , a]) => s === "ACCPT" && a === decimal(totalMinor - 5_000))!;
  expect(kept[1]).not.toBe(first);
  const cancelled = await t.ndc("PaymentClearanceRQ", paymentClearanceRQ({ clearanceId: first, amount: decimal(totalMinor) }));
  expect(errorCode(cancelled.body)).toBe("clearance_cancelled");
  const ok = await t.ndc("PaymentClearanceRQ", paymentClearanceRQ({ clearanceId: kept[1], amount: decimal(totalMinor - 5_000) }));
  expect(ok.status).toBe(200);
  // Refunded after clearing: the clearance stays cleared, and a refund clearance for exactly the
  // refund is requested (issue 19 item 13; test/clearance/refund-clearance.test.ts).
  await releaseAsSagasDo(t.gw.orders.ctx.payments, `${orderId}/test-refund-2`, async () => [{ legId: leg.legId, amount: 1_000 }])();
  expect(inAnyOrder((await clearancePushes(orderId)).map(([s, , a]) => [s, a]))).toEqual(inAnyOrder([["ACCPT", decimal(totalMinor)], ["CNCLD", decimal(totalMinor)], ["ACCPT", decimal(totalMinor - 5_000)], ["FLSTL", decimal(totalMinor - 5_000)], ["ACCPT", "-10.00"]]));
}, 30_000);

test("a cancellation over HTTP (OrderReshopRQ quote, OrderChangeRQ accept) refunds the payment before clearing: STTCAN, and the fee kept is requested again", async () => {
  // The first shopped offer whose fare refunds something on cancellation (SAVER is not cancellable, CLASSIC keeps the flights).
  let found: { orderId: string; totalMinor: number; q: Awaited<ReturnType<typeof quote>> } | undefined;
  for (let n = 0; n < 16 && !found; n++) {
    const b = await bookSettled(`cancel-${n}`, n);
    if ((await t.gw.orders.retrieve(b.orderId, sellerOf(t))).journeys[0]!.brandCode === "SAVER") continue;
    const q = await quote(t, b.orderId);
    if (Number(q.refund) > 0) found = { ...b, q };
  }
  const { orderId, totalMinor, q } = found!;
  const refund = Math.round(Number(q.refund) * 100);
  const r = await t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, q.quoteId));
  expect(r.status).toBe(200);
  const pushed = await clearancePushes(orderId);
  const kept = totalMinor - refund;
  expect(inAnyOrder(pushed.map(([s, , a]) => [s, a]))).toEqual(inAnyOrder([["ACCPT", decimal(totalMinor)], ["CNCLD", decimal(totalMinor)], ...(kept > 0 ? [["ACCPT", decimal(kept)]] : [])]));
}, 60_000);

test("the clearing and its notification commit together: a failing outbox write leaves the clearance requested and nothing queued", async () => {
  const { orderId } = await bookSettled("atomic");
  await clearancePushes(orderId);
  const queued = async () => ((await t.gw.store.db.all(`SELECT COUNT(*) AS n FROM notification_deliveries WHERE order_id = '${orderId}'`)) as { n: number }[])[0]!.n;
  const before = await queued();
  const allowOutbox = await refuseInserts(t.gw.store, "notification_deliveries");
  try {
    await expect(t.gw.clearances.clearDue()).rejects.toThrow("injected");
  } finally {
    await allowOutbox();
  }
  expect(await t.gw.store.db.all(`SELECT status FROM payment_clearances WHERE order_id = '${orderId}'`)).toEqual([{ status: "requested" }]);
  expect(await queued()).toBe(before);
  expect((await run("payments.clearance")).cleared).toBeGreaterThanOrEqual(1);
  expect(await t.gw.store.db.all(`SELECT status FROM payment_clearances WHERE order_id = '${orderId}'`)).toEqual([{ status: "cleared" }]);
  expect(await queued()).toBe(before + 1);
}, 30_000);

test("the capture and its clearance request (with its notification) commit together: a failing outbox write leaves the leg authorised and no clearance; the reconciler finishes both", async () => {
  const shopped = await shopOffer(t);
  const allowOutbox = await refuseInserts(t.gw.store, "notification_deliveries");
  try {
    const r = await t.ndc("OrderCreateRQ", orderCreateRQ({ shopped, legs: [{ kind: "settlement", method: "CA", amountMinor: shopped.totalMinor }], seller: t.gw.sandbox!.iata_number, correlationId: "clr-capfail", trxId: "trx-capfail" }));
    // The booking's close write (captures) failed as a whole: an unexpected store error, answered 500.
    expect([r.status, errorCode(r.body)]).toEqual([500, "internal_error"]);
  } finally {
    await allowOutbox();
  }
  // The one settlement leg left authorised (every other order of this file captured its legs).
  const legs = (await t.gw.store.db.all(`SELECT order_id FROM payment_legs WHERE kind = 'settlement' AND state = 'authorised'`)) as { order_id: string }[];
  expect(legs.length).toBe(1);
  const orderId = legs[0]!.order_id;
  expect(await t.gw.store.db.all(`SELECT * FROM payment_clearances WHERE order_id = '${orderId}'`)).toEqual([]);
  // The reconciler finishes the booking: the capture, its clearance and the notification, together.
  await t.gw.orders.reconcile(clock.now(), { minAgeMs: 0 });
  expect(await t.gw.store.db.all(`SELECT state FROM payment_legs WHERE order_id = '${orderId}'`)).toEqual([{ state: "captured" }]);
  expect((await clearancePushes(orderId)).map(([s, , a]) => [s, a])).toEqual([["ACCPT", decimal(shopped.totalMinor)]]);
}, 30_000);
