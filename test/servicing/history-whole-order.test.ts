import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestGateway } from "../support/gateway";
import { all, blocks, orderHistoryRQ } from "../orders-http/order-list-helpers";
import { DOC_NUMBER, gateway } from "../orders-http/helpers";
import { addRQ, extrasFor } from "./add-helpers";
import { bookCancellable } from "./cancel-helpers";
import { flightQuote, outboundOf, reshopFlightRQ } from "./flight-change-helpers";
import { updatePaxRQ } from "./rename-helpers";
import { dayAfter, T0 } from "../support/dates";

/**
 * Issue 9 item 12 over HTTP: OrderHistoryRS gives, in each ChangeGroup, the WHOLE order before
 * (Old) and after (New) the change, as OrderViewRS shows it (DataLists and Order, in the
 * FullyOptional namespace), identity documents omitted. Checked on a booking carrying a passport
 * number, then renamed, given an extra and moved to other flights: the number never appears; each
 * Old is exactly the previous version's New; and each change's Old and New differ by that change
 * alone. Every answer is XSD-checked by t.ndc (xmllint --nonet).
 */
let t: TestGateway;
beforeAll(async () => {
  ({ t } = await gateway());
});
afterAll(() => t.close());

/** The operation's own elements (unprefixed: the orders inside New and Old are `opt:`). */
const own = (g: string, name: string) => [...g.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, "g"))].map((m) => m[1]!);
/** A New or Old block's content, without its own tag (which names the block and the namespace). */
const inner = (g: string, name: "New" | "Old") => blocks(g, name)[0]?.replace(/^<(New|Old)[^>]*>/, "").replace(/<\/(New|Old)>$/, "");
/** What every change moves by itself: the version and its time. */
const unversioned = (x: string) => x.replace(/<opt:OrderVersionNumber>\d+</, "<opt:OrderVersionNumber>#<").replace(/<opt:LastModifiedDateTime>[^<]+</, "<opt:LastModifiedDateTime>#<");
/** The order's TotalPrice: the last TotalAmount of the block (the items' come first). */
const orderTotal = (x: string) => Math.round(Number([...x.matchAll(/TotalAmount CurCode="EUR">([^<]+)</g)].at(-1)![1]) * 100);

test("each ChangeGroup carries the whole order before and after; before/after differ exactly by the change; no document number anywhere", async () => {
  const { orderId, order } = await bookCancellable(t, "HWO-1", { brand: "FLEX", pax: [{ id: "PAX1", surname: "TRAVELLER", doc: { number: DOC_NUMBER } }] });
  // A rename, an extra, a flight change (dearer, paid by card).
  expect((await t.ndc("OrderChangeRQ", updatePaxRQ(orderId, { given: "Alexandra", surname: "TRAVELER" }))).status).toBe(200);
  const listed = await extrasFor(t, orderId);
  const bag = listed.items.find((i) => i.serviceDefinitionId === "SD-BAG1")!;
  expect((await t.ndc("OrderChangeRQ", addRQ(orderId, listed.offerId, [{ offerItemId: bag.offerItemId, paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: bag.unitMinor }]))).status).toBe(200);
  const out = outboundOf(t, order);
  const q = await flightQuote(t, reshopFlightRQ(orderId, out.itemIds, { ...out, date: dayAfter(T0, 53) }));
  const due = Math.round(Number(q.offers[0]!.due) * 100);
  const changed = await t.ndc("OrderChangeRQ", addRQ(orderId, q.offers[0]!.quoteId, [{ offerItemId: "FC1-1", paxId: "PAX1" }], [{ card: "tok_approve_visa", minor: due }], { correlationId: "hwo-fc", trxId: "t1" }));
  expect(changed.status).toBe(200);
  const after = await t.gw.orders.ctx.orders.ask(orderId, { op: "get" });

  const r = await t.ndc("OrderHistoryRQ", orderHistoryRQ(orderId));
  expect(r.status).toBe(200);
  // Identity documents omitted: neither the number nor the element, anywhere in the history.
  expect(r.body).not.toContain(DOC_NUMBER);
  expect(r.body).not.toContain("IdentityDoc");
  const groups = blocks(r.body, "ChangeGroup");
  expect(groups.length).toBe(after!.version);

  // Every group: New is the whole order at its version, Old the whole order at the one before.
  for (const [i, g] of groups.entries()) {
    const version = Number(own(g, "OrderVersionNumber")[0]);
    expect(version).toBe(i + 1);
    const n = inner(g, "New")!;
    expect(all(n, "opt:OrderID")).toEqual([orderId]);
    expect(all(n, "opt:OrderVersionNumber")).toEqual([String(version)]);
    expect(all(n, "opt:PaxID").length).toBeGreaterThan(0);
    expect(n).toContain("<opt:DataLists>");
    if (i === 0) {
      expect(inner(g, "Old")).toBeUndefined();
      continue;
    }
    // Old is exactly what the previous change left (its order; the payments it made are that change's own, in its New only).
    expect(inner(g, "Old")).toBe(inner(groups[i - 1]!, "New")!.replace(/<opt:PaymentFunctions>[\s\S]*?<\/opt:PaymentFunctions>/g, ""));
  }

  const of = (type: string) => groups.find((g) => own(g, "ChangeTypeCode")[0] === type)!;
  // The rename: the passenger's names and title (MR to MS, as sent), nothing else (beyond the version and its time).
  const rename = of("PAX_UPDATED");
  const renamedOld = unversioned(inner(rename, "Old")!).replace("<opt:GivenName>Alex</opt:GivenName>", "<opt:GivenName>Alexandra</opt:GivenName>").replace(/TRAVELLER/g, "TRAVELER").replace("<opt:TitleName>MR</opt:TitleName>", "<opt:TitleName>MS</opt:TitleName>");
  expect(renamedOld).toBe(unversioned(inner(rename, "New")!));
  expect(inner(rename, "Old")).not.toBe(inner(rename, "New"));

  // The extra: one more item, every item before it unchanged, the total up by its price.
  const added = of("ITEMS_ADDED");
  const [oldItems, newItems] = [blocks(blocks(inner(added, "Old")!, "opt:Order")[0]!, "opt:OrderItem"), blocks(blocks(inner(added, "New")!, "opt:Order")[0]!, "opt:OrderItem")];
  expect(newItems.length).toBe(oldItems.length + 1);
  for (const item of oldItems) expect(newItems).toContain(item);
  expect(orderTotal(inner(added, "New")!) - orderTotal(inner(added, "Old")!)).toBe(bag.unitMinor);

  // The flight change: the outbound's segments replaced, the same items, the total up by the due.
  const flights = of("FLIGHTS_CHANGED");
  const segments = (x: string) => new Set(all(blocks(x, "opt:PaxSegmentList")[0]!, "opt:PaxSegmentID"));
  const [oldSegs, newSegs] = [segments(inner(flights, "Old")!), segments(inner(flights, "New")!)];
  const [oldKeys, newKeys] = [order.journeys[0]!.flightKeys, after!.journeys[0]!.flightKeys];
  expect(oldKeys.every((k) => oldSegs.has(`SEG-${k}`) && !newSegs.has(`SEG-${k}`))).toBe(true);
  expect(newKeys.every((k) => newSegs.has(`SEG-${k}`) && !oldSegs.has(`SEG-${k}`))).toBe(true);
  const ids = (x: string) => all(blocks(x, "opt:Order")[0]!, "opt:OrderItemID");
  expect(ids(inner(flights, "New")!)).toEqual(ids(inner(flights, "Old")!));
  expect(orderTotal(inner(flights, "New")!) - orderTotal(inner(flights, "Old")!)).toBe(due);
}, 60_000);
