import { afterAll, beforeAll, expect, test } from "bun:test";
import { MAX_CANCELLED_ITEMS } from "@ndc/orders";
import { bookCancellable } from "../servicing/cancel-helpers";
import { addEveryRole, logInEveryRole, staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Issue 21 item 3: the staff API's limits are the domain's own for the rule they mean. Cancelling
 * items is limited by the order domain (MAX_CANCELLED_ITEMS, as an OrderReshopRQ is); adding has
 * no count limit in the domain, so the staff call has none of its own either: its items are
 * judged as an NDC addition's are (each an item of the offer).
 */
let w: StaffWorld;
let agent: Session;

beforeAll(async () => {
  w = await staffWorld();
  await addEveryRole(w);
  ({ agent } = await logInEveryRole(w));
}, 60_000);
afterAll(() => w.t.close());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
const post = (orderId: string, step: string, body: unknown) => agent.call(`/staff/api/orders/${orderId}/servicing/${step}`, { method: "POST", body });

test("an items cancellation names at most the domain's MAX_CANCELLED_ITEMS; an addition has no count of its own", async () => {
  const { orderId, order } = await bookCancellable(w.t, "SLM1");
  const tooMany = Array.from({ length: MAX_CANCELLED_ITEMS + 1 }, (_, i) => `${orderId}-${String(i).padStart(8, "0")}`);
  const refused = await json(await post(orderId, "cancel/quote", { orderItemIds: tooMany }));
  expect([refused.status, refused.body.error, refused.body.element]).toEqual([400, "request_invalid", "orderItemIds"]);
  expect(refused.body.error_description).toContain(`at most ${MAX_CANCELLED_ITEMS} order item ids`);

  const options = await json(await agent.call(`/staff/api/orders/${orderId}/servicing/options`));
  const extra = options.body.extras.items.find((i: any) => Number(i.unitPrice) > 0)!;
  const paxIds = order.passengers.map((p) => p.paxId);
  const many = Array.from({ length: MAX_CANCELLED_ITEMS + 1 }, () => ({ offerItemId: extra.offerItemId, paxIds: [paxIds[0]] }));
  const added = await json(await post(orderId, "add/quote", { form: "services", offerId: options.body.extras.offerId, items: many }));
  // Past the old copied limit of 12, the domain judges the items themselves: the repeat is what it refuses, at the second.
  expect([added.status, added.body.error, added.body.element]).toEqual([400, "request_invalid", "items[1]/OfferItemRefID"]);
}, 90_000);
