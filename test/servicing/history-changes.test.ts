import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { all, blocks } from "../orders-http/order-list-helpers";
import { gateway, orderCreateRQ, orderIdOf, shopOffer, DOC_NUMBER } from "../orders-http/helpers";
import { ndcRequest } from "../support/requests";
import { bookCancellable, sellerOf } from "./cancel-helpers";
import { updatePaxRQ } from "./rename-helpers";
import { BOOKING_TEST_MS } from "./helpers";

/**
 * Issue 9 item 12 (the remainder) over HTTP: OrderHistoryRS gives each change as a ChangeGroup
 * with its operation, time, actor (DistributionChain) and order version, and the whole order before
 * and after (history-whole-order.test.ts; never an identity document); OrderViewRS shows gender as
 * booked; every change raises the version.
 * Every answer is XSD-checked by t.ndc.
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

/** The operation's own elements (unprefixed: the orders in New and Old are `opt:`). */
const own = (g: string, name: string) => [...g.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, "g"))].map((m) => m[1]!);
/** The order's TotalPrice in a New or Old block: the last TotalAmount (the items' come first). */
const orderTotal = (x: string) => [...x.matchAll(/TotalAmount CurCode="EUR">([^<]+)</g)].at(-1)?.[1];

const historyRQ = (orderId: string) => ndcRequest("OrderHistoryRQ", { request: `<cns:Order><cns:OrderID>${orderId}</cns:OrderID><cns:OwnerCode>XB</cns:OwnerCode></cns:Order>`, correlationId: "C-HIST" });

test("a rename's ChangeGroup: PAX_UPDATED, its time, the seller as actor, the next version, the passenger before and after", async () => {
  const { orderId, order } = await bookCancellable(t, "HIST-1", { brand: "FLEX", seat: false });
  const renamed = await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { given: "Alexandra", surname: "TRAVELER" }));
  expect(renamed.status).toBe(200);
  expect(all(renamed.body, "OrderVersionNumber")[0]).toBe(String(order.version + 1));
  const r = await t.ndc("OrderHistoryRQ", historyRQ(orderId));
  expect(r.status).toBe(200);
  const groups = blocks(r.body, "ChangeGroup");
  expect(groups.map((g) => Number(own(g, "OrderVersionNumber")[0]))).toEqual(Array.from({ length: order.version + 1 }, (_, i) => i + 1));
  const last = groups.at(-1)!;
  expect(own(last, "ChangeTypeCode")).toEqual(["PAX_UPDATED"]);
  expect(own(last, "ChangeDateTime")[0]).toMatch(/^\d{4}-\d\d-\d\dT/);
  expect(all(last, "OrgRole")).toEqual(["Seller"]);
  expect(all(last, "OrgID")).toEqual([sellerOf(t).agencyId]);
  expect(all(blocks(last, "Old")[0]!, "Surname")).toEqual(["TRAVELLER"]);
  expect(all(blocks(last, "New")[0]!, "Surname")).toEqual(["TRAVELER"]);
  expect(all(blocks(last, "New")[0]!, "GivenName")).toEqual(["Alexandra"]);
  // The airline's own steps are the carrier's.
  expect(groups.filter((g) => own(g, "ChangeTypeCode")[0] === "PAYMENT_CAPTURED").flatMap((g) => all(g, "OrgRole"))).toEqual(["Carrier"]);
  // Each version is the whole order: the name as it was in every earlier one; an identity document never.
  expect(groups.slice(0, -1).every((g) => all(blocks(g, "New")[0]!, "Surname").includes("TRAVELLER"))).toBe(true);
  expect(r.body).not.toContain(DOC_NUMBER);
  expect(r.body).not.toContain("IdentityDoc");
}, BOOKING_TEST_MS);

test("a staff rename names the carrier and the staff agent", async () => {
  const { orderId } = await bookCancellable(t, "HIST-2", { brand: "LIGHT", seat: false });
  await t.gw.orders.renamePax({ orderId, by: { channel: "airline_staff", staffId: "agent-9" }, request: { clientId: "staff:agent-9", correlationId: "desk", trxId: "h2" }, paxId: "PAX1", name: { givenNames: ["Ann"], surname: "STAFF" }, useFlexibility: false });
  const last = blocks((await t.ndc("OrderHistoryRQ", historyRQ(orderId))).body, "ChangeGroup").at(-1)!;
  expect(all(last, "OrgRole")).toEqual(["Carrier"]);
  expect(all(last, "OrgID")).toEqual(["XB"]);
  expect(all(last, "SalesAgentID")).toEqual(["agent-9"]);
});

test("an added extra: the total before and after", async () => {
  const { orderId, order } = await bookCancellable(t, "HIST-3", { brand: "FLEX", seat: false });
  const { addRQ, extrasFor } = await import("./add-helpers");
  const listed = await extrasFor(t, orderId);
  const bag = listed.items.find((i) => i.serviceDefinitionId === "SD-BAG1")!;
  expect((await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: bag.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: bag.unitMinor }]))).status).toBe(200);
  const groups = blocks((await t.ndc("OrderHistoryRQ", historyRQ(orderId))).body, "ChangeGroup");
  const added = groups.find((g) => own(g, "ChangeTypeCode")[0] === "ITEMS_ADDED")!;
  expect(orderTotal(blocks(added, "Old")[0]!)).toBe((order.totalMinor / 100).toFixed(2));
  expect(orderTotal(blocks(added, "New")[0]!)).toBe(((order.totalMinor + bag.unitMinor) / 100).toFixed(2));
}, BOOKING_TEST_MS);

test("gender as booked is shown in OrderViewRS (Individual/GenderCode); a code outside 24.4 is refused", async () => {
  const shopped = await shopOffer(t, { pax: 1, seat: false });
  const rq = orderCreateRQ({ shopped, legs: [{ kind: "card", token: "tok_approve_visa", amountMinor: shopped.totalMinor }], correlationId: "c-gender", trxId: "t-gender" });
  const r = await t.ndc("OrderCreateRQ", rq.replace("<cns:Individual>", "<cns:Individual><cns:GenderCode>F</cns:GenderCode>"));
  expect(r.status).toBe(200);
  expect(r.body).toContain("<cns:Individual><cns:GenderCode>F</cns:GenderCode>");
  expect((await t.gw.orders.retrieve(orderIdOf(r.body), sellerOf(t))).passengers[0]!.gender).toBe("F");
  const bad = await t.ndc("OrderCreateRQ", rq.replace("<cns:Individual>", "<cns:Individual><cns:GenderCode>Q</cns:GenderCode>").replace("t-gender", "t-gender-2"));
  expect(bad.status).toBe(400);
  expect(bad.body).toContain("GenderCode");
});
