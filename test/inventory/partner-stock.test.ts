import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ManualClock } from "@ndc/clock";
import { partnerProduct } from "@ndc/supply";
import { boot, settle, tempDir, type Booted } from "./helpers";

/** Spec 4.4 rule 3 and 8: partner products have finite stock and are sold once per order. */
const tmp = tempDir();
const clock = new ManualClock();
let b: Booted;
const MIN = 60_000;
const HOTEL = "PP-HOTEL-SIN"; // stock 3
const ESIM = "PP-ESIM";

async function liveUnits(code: string): Promise<{ order_id: string; unit: number }[]> {
  return (await b.store.db.all(
    sql`SELECT order_id, unit FROM partner_stock_units WHERE product_code = ${code} AND status IN ('held', 'sold') ORDER BY unit`,
  )) as { order_id: string; unit: number }[];
}

beforeAll(async () => {
  b = await boot(tmp.url, { clock });
});
afterAll(async () => {
  await b.close();
  tmp.cleanup();
});

describe("stock", () => {
  test("30 orders racing for a product with 3 units: 3 get one, 27 sold out, never negative", async () => {
    expect(partnerProduct(HOTEL)!.initialStock).toBe(3);
    const { ok, codes } = await settle(
      Array.from({ length: 30 }, (_, i) =>
        i % 3 === 0
          ? b.service.holdPartnerProduct({ productCode: HOTEL, orderId: `ORD-${i}`, channel: "ndc" })
          : b.service.sellPartnerProduct({ productCode: HOTEL, orderId: `ORD-${i}`, channel: "web_shop" }),
      ),
    );
    expect(ok).toHaveLength(3);
    expect(codes.filter((c) => c === "partner_product_sold_out")).toHaveLength(27);
    expect((await liveUnits(HOTEL)).map((u) => u.unit)).toEqual([0, 1, 2]);
    const stock = await b.service.partnerStock(HOTEL);
    expect(stock.available).toBe(0);
    expect(stock.held + stock.sold).toBe(3);
  });

  test("a released unit goes back to stock, and a lapsed hold frees its unit", async () => {
    const held = (await liveUnits(HOTEL)).map((u) => u.order_id);
    const rows = (await b.store.db.all(sql`SELECT hold_id, status FROM partner_stock_units WHERE product_code = ${HOTEL} AND status IN ('held', 'sold')`)) as {
      hold_id: string;
      status: string;
    }[];
    const sold = rows.find((r) => r.status === "sold")!;
    await b.service.releasePartnerProduct(HOTEL, sold.hold_id);
    expect((await b.service.partnerStock(HOTEL)).available).toBe(1);
    const late = await b.service.holdPartnerProduct({ productCode: HOTEL, orderId: "ORD-late", channel: "ndc", expiresAt: clock.now() + MIN });
    expect((await b.service.partnerStock(HOTEL)).available).toBe(0);
    expect(held).toHaveLength(3);
    clock.advance(30 * MIN); // the default hold time has passed for the NDC holds too
    const stock = await b.service.partnerStock(HOTEL);
    expect(stock.available).toBeGreaterThan(0);
    expect((await settle([b.service.confirmPartnerProduct(HOTEL, late.holdId)])).codes).toEqual(["partner_product_hold_expired"]);
    expect((await b.service.sellPartnerProduct({ productCode: HOTEL, orderId: "ORD-after", channel: "web_shop" })).status).toBe("sold");
  });

  test("a product with no stock, or none at all, is refused", async () => {
    expect((await settle([b.service.holdPartnerProduct({ productCode: "PP-RETAIL", orderId: "ORD-x", channel: "ndc" })])).codes).toEqual([
      "partner_product_sold_out",
    ]);
    expect((await settle([b.service.holdPartnerProduct({ productCode: "PP-NOPE", orderId: "ORD-x", channel: "ndc" })])).codes).toEqual([
      "partner_product_not_found",
    ]);
    expect((await b.service.partnerStock("PP-RETAIL")).available).toBe(0);
  });
});

describe("once per order", () => {
  test("a second unit for the same order is refused on every channel, concurrent or not", async () => {
    const { ok, codes } = await settle([
      b.service.holdPartnerProduct({ productCode: ESIM, orderId: "ORD-1", channel: "ndc" }),
      b.service.holdPartnerProduct({ productCode: ESIM, orderId: "ORD-1", channel: "ndc" }),
      b.service.sellPartnerProduct({ productCode: ESIM, orderId: "ORD-1", channel: "web_shop" }),
    ]);
    expect(ok).toHaveLength(1);
    expect(codes).toEqual(["partner_product_once_per_order", "partner_product_once_per_order"]);
    await b.service.confirmPartnerProduct(ESIM, ok[0]!.holdId);
    expect((await settle([b.service.holdPartnerProduct({ productCode: ESIM, orderId: "ORD-1", channel: "ndc" })])).codes).toEqual([
      "partner_product_once_per_order",
    ]);
    // Other orders, and other products on the same order, are not affected.
    await b.service.holdPartnerProduct({ productCode: ESIM, orderId: "ORD-2", channel: "ndc" });
    await b.service.holdPartnerProduct({ productCode: "PP-INSURANCE", orderId: "ORD-1", channel: "ndc" });
    expect((await liveUnits(ESIM)).filter((u) => u.order_id === "ORD-1")).toHaveLength(1);
  });

  test("after its unit is released the order may take the product again", async () => {
    const h = await b.service.holdPartnerProduct({ productCode: ESIM, orderId: "ORD-3", channel: "ndc" });
    await b.service.releasePartnerProduct(ESIM, h.holdId);
    expect((await b.service.holdPartnerProduct({ productCode: ESIM, orderId: "ORD-3", channel: "ndc" })).status).toBe("held");
  });
});

describe("rehydration", () => {
  test("a restarted actor counts the same stock and orders", async () => {
    const before = await b.service.partnerStock(ESIM);
    await b.close();
    b = await boot(tmp.url, { clock });
    expect(await b.service.partnerStock(ESIM)).toEqual(before);
    expect((await settle([b.service.holdPartnerProduct({ productCode: ESIM, orderId: "ORD-1", channel: "web_shop" })])).codes).toEqual([
      "partner_product_once_per_order",
    ]);
  });
});
