import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Order } from "@ndc/orders";
import { addDays } from "@ndc/supply";
import { errorCode } from "../support/gateway";
import { all, blocks, book, card, FARE_MINOR, nextCursor, orderListRQ, OTHER, start, type Ctx } from "./order-list-helpers";

let c: Ctx;
const mine: Order[] = [];
let created2: number;

beforeAll(async () => {
  c = await start();
  // Five orders an hour apart: three held, two paid; travel 5, 10, 15, 20 and 25 days out.
  for (let i = 0; i < 5; i++) {
    if (i === 2) created2 = c.clock.now();
    mine.push(await book(c, { tag: `L${i}`, day: 5 * (i + 1), ...(i % 2 === 1 ? { payment: [card(FARE_MINOR)] } : {}) }));
    c.clock.advance(3_600_000);
  }
  // Another seller's orders: never listed to the sandbox seller.
  await book(c, { tag: "OTHER1", seller: OTHER });
  await book(c, { tag: "OTHER2", seller: OTHER, payment: [card(FARE_MINOR)] });
});
afterAll(() => c.t.close());

const list = async (o: Parameters<typeof orderListRQ>[0] = {}) => {
  const r = await c.t.ndc("OrderListRQ", orderListRQ(o));
  expect(r.status).toBe(200);
  return { ...r, ids: all(r.body, "OrderRefID"), status: all(r.body, "OrderStatusCode"), page: all(r.body, "DescText").find((d) => d.includes("per page")), next: nextCursor(r.body) };
};

test("lists only the caller's own orders, newest first, with state, creation and first flight", async () => {
  const r = await list();
  expect(r.ids).toEqual(mine.map((o) => o.orderId).reverse());
  expect(r.status).toEqual(["ORDWPM", "BOOKED", "ORDWPM", "BOOKED", "ORDWPM"]);
  const first = blocks(r.body, "MatchedOrder").at(-1)!;
  expect(first).toContain("<cns:StationCode>LHR</cns:StationCode>");
  expect(first).toContain("<cns:StationCode>CDG</cns:StationCode>");
  expect(first).toContain(`<cns:DepDate>${addDays(c.t.gw.supply.startDate, 5)}</cns:DepDate>`);
  expect(first).toContain(`<cns:CreationDateTime>${new Date(mine[0]!.createdAt).toISOString()}</cns:CreationDateTime>`);
  expect(r.page).toBe("5 orders on this page, at most 20 per page. This is the last page.");
  expect(r.next).toBeUndefined();
  // No passenger is named in a list.
  expect(r.body).not.toContain("LOVELACE");
});

test("paging: pages of two follow the gw:NextPage cursor, the page stated in a warning", async () => {
  const p1 = await list({ page: { size: 2 } });
  const p2 = await list({ page: { size: 2, after: p1.next! } });
  const p3 = await list({ page: { size: 2, after: p2.next! } });
  expect([...p1.ids, ...p2.ids, ...p3.ids]).toEqual(mine.map((o) => o.orderId).reverse());
  expect(p1.page).toStartWith("2 orders on this page, at most 2 per page. More orders match");
  expect(p1.body).toContain(`<gw:NextPage xmlns:gw="urn:x-ndc-gateway:simulation:1" after="${p1.next}" size="2"/>`);
  expect(p3.page).toBe("1 orders on this page, at most 2 per page. This is the last page.");
  expect(p3.next).toBeUndefined();
  // A page number is not how pages are asked for any more: refused, not silently page 1.
  const numbered = await c.t.ndc("OrderListRQ", orderListRQ({ page: { number: 2, size: 2 } }));
  expect(numbered.status).toBe(400);
  expect(errorCode(numbered.body)).toBe("request_invalid");
  expect(numbered.body).toContain("AugmentationPoint/Page/@number");
});

test("filters: status, creation time, last modified, travel dates, carrier", async () => {
  expect((await list({ status: ["BOOKED"] })).ids.sort()).toEqual([mine[1]!, mine[3]!].map((o) => o.orderId).sort());
  expect((await list({ status: ["ORDWPM", "BOOKED"] })).ids.length).toBe(5);
  const since = new Date(created2).toISOString();
  expect((await list({ created: [since] })).ids.sort()).toEqual(mine.slice(2).map((o) => o.orderId).sort());
  expect((await list({ created: [undefined, since] })).ids.sort()).toEqual(mine.slice(0, 3).map((o) => o.orderId).sort());
  expect((await list({ modified: [new Date(c.clock.now()).toISOString()] })).ids).toEqual([]);
  expect((await list({ modified: [since] })).ids.length).toBe(3);
  const start = c.t.gw.supply.startDate;
  expect((await list({ travel: [addDays(start, 9), addDays(start, 16)] })).ids.sort()).toEqual([mine[1]!, mine[2]!].map((o) => o.orderId).sort());
  expect((await list({ carrier: "XB" })).ids.length).toBe(5);
  expect((await list({ carrier: "LH" })).ids).toEqual([]);
});

test("an unknown status code or a filter naming a person is refused, naming the element", async () => {
  const bad = await c.t.ndc("OrderListRQ", orderListRQ({ status: ["PAID_MAYBE"] }));
  expect(bad.status).toBe(400);
  expect(errorCode(bad.body)).toBe("request_invalid");
  expect(bad.body).toContain("AugmentationPoint/StatusCode[1]");
  const pax = orderListRQ().replace("<cns:OrderSearchFilterCriteria>", "<cns:OrderSearchFilterCriteria><cns:PaxFilterCriteria><cns:IdentityDocID>X</cns:IdentityDocID></cns:PaxFilterCriteria>");
  const r = await c.t.ndc("OrderListRQ", pax);
  expect(r.status).toBe(400);
  expect(errorCode(r.body)).toBe("request_invalid");
});
