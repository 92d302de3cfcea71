/**
 * OrderListRQ keyset paging over HTTP (docs/decisions/0009): every order exactly once and in
 * order, with filters; a cursor is bound to its seller and its filters; an order booked between
 * pages does not shift them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Order } from "@ndc/orders";
import { errorCode } from "../support/gateway";
import { all, book, card, FARE_MINOR, nextCursor, orderListRQ, OTHER, start, type Ctx, type ListOpts } from "./order-list-helpers";
import { ndcAs, otherSeller } from "./helpers";

let c: Ctx;
const mine: Order[] = [];

beforeAll(async () => {
  c = await start();
  // 23 orders: pairs share a creation instant (ties are ordered by id), every third is paid.
  for (let i = 0; i < 23; i++) {
    mine.push(await book(c, { tag: `K${i}`, day: 3 + (i % 7), ...(i % 3 === 0 ? { payment: [card(FARE_MINOR)] } : {}) }));
    if (i % 2 === 1) c.clock.advance(60_000);
  }
  await book(c, { tag: "K-OTHER", seller: OTHER });
}, 60_000);
afterAll(() => c.t.close());

/** Newest first; ties on the creation instant by order id, descending. */
const expected = (orders: Order[]) =>
  [...orders].sort((a, b) => b.createdAt - a.createdAt || (a.orderId < b.orderId ? 1 : a.orderId > b.orderId ? -1 : 0)).map((o) => o.orderId);

async function walk(o: ListOpts, size: number, between?: () => Promise<void>): Promise<string[][]> {
  const pages: string[][] = [];
  let after: string | undefined;
  do {
    const r = await c.t.ndc("OrderListRQ", orderListRQ({ ...o, page: { size, ...(after ? { after } : {}) } }));
    expect(r.status).toBe(200);
    pages.push(all(r.body, "OrderRefID"));
    after = nextCursor(r.body);
    if (between) await between();
  } while (after);
  return pages;
}

test("paging through every order returns each exactly once, in order, for several page sizes", async () => {
  for (const size of [1, 4, 5, 23, 100]) {
    const pages = await walk({}, size);
    expect(pages.flat()).toEqual(expected(mine));
    expect(pages.length).toBe(Math.max(1, Math.ceil(mine.length / size)));
    for (const p of pages) expect(p.length).toBeLessThanOrEqual(size);
  }
  // 30 s, not bun's default 5 s: 36 OrderListRQs, each answer checked by a spawned xmllint; on the
  // shared 2-core machine (load 14-20) it took 5.7 s on SQLite, 8.1 s on PostgreSQL. No timing is asserted.
}, 30_000);

test("with filters: each matching order once, in order", async () => {
  const pages = await walk({ status: ["BOOKED"] }, 3);
  expect(pages.flat()).toEqual(expected(mine.filter((_, i) => i % 3 === 0)));
  const since = new Date(mine[10]!.createdAt).toISOString();
  expect((await walk({ created: [since], status: ["ORDWPM"] }, 2)).flat()).toEqual(expected(mine.filter((o, i) => o.createdAt >= mine[10]!.createdAt && i % 3 !== 0)));
});

test("a cursor used with other filters, by another seller, or altered is refused naming the element", async () => {
  const first = await c.t.ndc("OrderListRQ", orderListRQ({ page: { size: 2 }, status: ["ORDWPM"] }));
  const after = nextCursor(first.body)!;
  expect(after).toBeString();
  // Same seller, other filters.
  for (const other of [{ status: ["BOOKED"] }, {}, { status: ["ORDWPM"], created: ["2020-01-01T00:00:00Z"] as [string] }]) {
    const r = await c.t.ndc("OrderListRQ", orderListRQ({ ...other, page: { size: 2, after } }));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("request_invalid");
    expect(r.body).toContain("<cns:TagText>AugmentationPoint/Page/@after</cns:TagText>");
  }
  // The same filters written in another order are the same filters.
  const same = await c.t.ndc("OrderListRQ", orderListRQ({ page: { size: 2, after }, status: ["ORDWPM", "ORDWPM"] }));
  expect(same.status).toBe(200);
  // Another seller with the same filters.
  const theirs = await ndcAs(c.t, await otherSeller(c.t, "AGY-KEYSET"), "OrderListRQ", orderListRQ({ page: { size: 2, after }, status: ["ORDWPM"] }));
  expect(theirs.status).toBe(400);
  expect(errorCode(theirs.body)).toBe("request_invalid");
  expect(theirs.body).toContain("AugmentationPoint/Page/@after");
  // One character changed in the position.
  const altered = after.replace(/^(.)/, (ch) => (ch === "A" ? "B" : "A"));
  const r = await c.t.ndc("OrderListRQ", orderListRQ({ page: { size: 2, after: altered }, status: ["ORDWPM"] }));
  expect(r.status).toBe(400);
  expect(r.body).toContain("AugmentationPoint/Page/@after");
});

test("an order booked between pages does not shift the pages: none repeated, none skipped", async () => {
  let n = 0;
  const before = [...mine];
  const pages = await walk({}, 4, async () => {
    c.clock.advance(1_000);
    mine.push(await book(c, { tag: `K-NEW${n++}` }));
  });
  // The orders booked while paging are newer than the first page, so the walk sees exactly the rest.
  expect(pages.flat()).toEqual(expected(before));
  expect(n).toBe(pages.length);
});
