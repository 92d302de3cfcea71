import { afterAll, beforeAll, expect, test } from "bun:test";
import { all, blocks } from "../orders-http/order-list-helpers";
import { acceptCancelRQ, bookCancellable, cancelItemsRQ, sellerOf } from "../servicing/cancel-helpers";
import { addRQ, extrasFor } from "../servicing/add-helpers";
import { addEveryRole, logInEveryRole, staffWorld, type Session, type StaffWorld } from "./support";
import { dayAfter, T0 } from "../support/dates";

/**
 * Issue 20 item 6 on the staff API: an order keeping a retained value (RespendInd) pays a flight
 * change or an addition accepted by staff with that value first and the card given for the rest,
 * as the seller's OrderChangeRQ does (the saga refuses a card paying the full due). The quote says
 * what the card pays (`toPay`).
 */
let w: StaffWorld;
let senior: Session;
let agent: Session;
beforeAll(async () => {
  w = await staffWorld();
  await addEveryRole(w);
  ({ agent, senior } = await logInEveryRole(w));
}, 60_000);
afterAll(() => w.t.close());

const REASON = "Customer asked by phone, change made by the airline";
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const post = (s: Session, orderId: string, step: string, body: unknown) => s.call(`/staff/api/orders/${orderId}/servicing/${step}`, { method: "POST", body });
const minorOf = (decimal: string) => Math.round(Number(decimal) * 100);

/** A CLASSIC order with the cheapest priced extra bought, then cancelled keeping its value (RespendInd): the value retained. */
async function retaining(tag: string): Promise<{ orderId: string; retainedMinor: number }> {
  const { orderId } = await bookCancellable(w.t, tag, { brand: "CLASSIC", seat: false });
  const listed = await extrasFor(w.t, orderId);
  const item = listed.items.filter((i) => i.paxIds.includes("PAX1") && i.unitMinor > 0).sort((a, b) => a.unitMinor - b.unitMinor)[0]!;
  expect((await w.t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: item.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_mastercard", minor: item.unitMinor }], { correlationId: `x-${tag}` }))).status).toBe(200);
  const extra = (await w.t.gw.orders.retrieve(orderId, sellerOf(w.t))).items.find((i) => i.offerId === listed.offerId)!;
  const q = await w.t.ndc("OrderReshopRQ", cancelItemsRQ(orderId, [extra.orderItemId], { extra: "<cns:RespendInd>true</cns:RespendInd>" }));
  expect(q.status).toBe(200);
  expect((await w.t.ndc("OrderChangeRQ", acceptCancelRQ(orderId, all(blocks(q.body, "Offer")[0]!, "OfferID")[0]!, { trxId: `keep-${tag}` }))).status).toBe(200);
  const order = (await w.t.gw.orders.airlineDetails(orderId)).order;
  expect(order.retained?.amountMinor).toBe(extra.totalMinor);
  return { orderId, retainedMinor: extra.totalMinor };
}

const captured = async (orderId: string) => (await w.t.gw.orders.ctx.payments.ledger.legs(orderId)).reduce((s, l) => s + l.captured, 0);

test("a flight change accepted by staff: the retained value pays first, the card the rest (toPay)", async () => {
  const { orderId, retainedMinor } = await retaining("SRT1");
  const q = await json(await post(agent, orderId, "change/quote", { direction: 0, date: dayAfter(T0, 53) }));
  expect(q.status).toBe(200);
  expect(minorOf(q.body.retained.amount)).toBe(retainedMinor);
  const alt = q.body.alternatives.find((a: any) => minorOf(a.due.amount) > retainedMinor)!;
  expect(alt).toBeDefined();
  const dueMinor = minorOf(alt.due.amount);
  expect(minorOf(alt.toPay.amount)).toBe(dueMinor - retainedMinor);
  const before = await captured(orderId);
  const done = await json(await post(senior, orderId, "change", { quoteId: alt.quoteId, reason: REASON, cardToken: "tok_approve_visa" }));
  expect(done.status).toBe(200);
  const after = (await w.t.gw.orders.airlineDetails(orderId)).order;
  expect(after.journeys[0]!.flightKeys).toEqual(alt.flights.map((f: { key: string }) => f.key));
  expect((await captured(orderId)) - before).toBe(dueMinor - retainedMinor);
  expect(after.retained?.amountMinor ?? 0).toBe(0);
  expect(after.charges!.at(-1)!).toMatchObject({ amountMinor: dueMinor, retainedSpentMinor: retainedMinor });
}, 90_000);

test("an addition accepted by staff: the retained value pays first, the card the rest", async () => {
  const { orderId, retainedMinor } = await retaining("SRT2");
  const options = await json(await agent.call(`/staff/api/orders/${orderId}/servicing/options`));
  const extra = options.body.extras.items.filter((i: any) => minorOf(i.unitPrice) > retainedMinor).sort((a: any, b: any) => minorOf(a.unitPrice) - minorOf(b.unitPrice))[0]!;
  const q = await json(await post(agent, orderId, "add/quote", { form: "services", offerId: options.body.extras.offerId, items: [{ offerItemId: extra.offerItemId, paxIds: [extra.paxIds[0]] }] }));
  expect(q.status).toBe(200);
  const chargeMinor = minorOf(q.body.charge.amount);
  const before = await captured(orderId);
  const done = await json(await post(senior, orderId, "add", { quoteId: q.body.quoteId, reason: REASON, cardToken: "tok_approve_visa" }));
  expect(done.status).toBe(200);
  expect((await captured(orderId)) - before).toBe(chargeMinor - retainedMinor);
  expect((await w.t.gw.orders.airlineDetails(orderId)).order.retained?.amountMinor ?? 0).toBe(0);
}, 90_000);
