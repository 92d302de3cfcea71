import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { ActorSystem } from "@ndc/actors";
import { InventoryService, WebShopChannel } from "@ndc/inventory";
import { isConstraintViolation, tables, type Store } from "@ndc/store";
import { boot, FLIGHT, freeSeats, liveSeatRows, settle, tempDir, testSupply, type Booted } from "./helpers";

/**
 * The store backs the actors up (DESIGN 4): even a writer that got past every actor cannot
 * put a second live claim on a seat, a partner unit beyond the stock, or a second unit of a
 * product on one order.
 */
const tmp = tempDir();
let b: Booted;
const [SEAT, SEAT2] = freeSeats(testSupply());
const now = Date.UTC(2026, 10, 21, 12);

const seatRow = (holdId: string, seatId: string, status = "sold") => ({
  flightKey: FLIGHT,
  seatId,
  holdId,
  status,
  holder: "intruder",
  channel: "web_shop",
  expiresAt: now + 60_000,
  createdAt: now,
  updatedAt: now,
});

const unitRow = (holdId: string, orderId: string, unit: number, status = "sold") => ({
  productCode: "PP-HOTEL-SIN",
  holdId,
  orderId,
  unit,
  stockTotal: 3,
  status,
  channel: "ndc",
  expiresAt: now + 60_000,
  createdAt: now,
  updatedAt: now,
});

async function refused(store: Store, write: (tx: Store["db"]) => Promise<unknown>): Promise<boolean> {
  try {
    await store.write(async (tx) => {
      await write(tx);
    });
    return false;
  } catch (e) {
    if (isConstraintViolation(e)) return true;
    throw e;
  }
}

beforeAll(async () => {
  b = await boot(tmp.url);
});
afterAll(async () => {
  await b.close();
  tmp.cleanup();
});

describe("seat_inventory", () => {
  test("a direct duplicate insert of a live seat is rejected", async () => {
    const sale = await b.webShop.sellSeat(FLIGHT, SEAT!);
    expect(await refused(b.store, (tx) => tx.insert(tables.seatInventory).values(seatRow("SH-intruder", SEAT!)))).toBe(true);
    expect(await refused(b.store, (tx) => tx.insert(tables.seatInventory).values(seatRow("SH-intruder", SEAT!, "held")))).toBe(true);
    const rows = await liveSeatRows(b.store, FLIGHT, SEAT);
    expect(rows.map((r) => r.hold_id)).toEqual([sale.holdId]);
  });

  test("two live rows for one seat cannot be written even in one transaction, and ended rows do not count", async () => {
    expect(
      await refused(b.store, (tx) => tx.insert(tables.seatInventory).values([seatRow("SH-a", SEAT2!), seatRow("SH-b", SEAT2!, "held")])),
    ).toBe(true);
    // Released and expired rows are history: any number of them sit beside one live row.
    await b.store.write(async (tx) => {
      await tx.insert(tables.seatInventory).values([seatRow("SH-old1", SEAT2!, "released"), seatRow("SH-old2", SEAT2!, "expired"), seatRow("SH-live", SEAT2!)]);
    });
    expect(await liveSeatRows(b.store, FLIGHT, SEAT2)).toHaveLength(1);
    expect(await refused(b.store, (tx) => tx.run(sql`UPDATE seat_inventory SET status = 'sold' WHERE hold_id = 'SH-old1'`))).toBe(true);
  });

  test("a second process's actor that missed a sale is stopped by the store, then decides afresh", async () => {
    // Two actor systems on one database (a web-shop CLI next to a running gateway): each has
    // its own actor for the flight, and the second one's memory is behind.
    const seat = freeSeats(b.supply)[5]!;
    const other = new ActorSystem({ store: b.store, clock: b.clock, limits: { idleMs: 60_000, mailboxLimit: 100 }, sweepEveryMs: false });
    const otherShop = new WebShopChannel(new InventoryService({ system: other, store: b.store, supply: b.supply, clock: b.clock }));
    await otherShop.seats(FLIGHT); // loads its actor now, before the first system sells
    await b.webShop.sellSeat(FLIGHT, seat);
    const late = await settle([otherShop.sellSeat(FLIGHT, seat)]);
    expect(late.codes).toEqual(["seat_unavailable"]);
    expect(await liveSeatRows(b.store, FLIGHT, seat)).toHaveLength(1);
    // Reloaded from the store, the second system now sees every sale, its own next one included.
    const next = await otherShop.sellSeat(FLIGHT, freeSeats(b.supply)[6]!);
    expect(next.status).toBe("sold");
    await other.close();
  });

  test("a live row written outside the actor (the journal never moved) refuses the sale with seat_unavailable, not a 500", async () => {
    // Not a lost race (the actor runtime decides those again): its state is the journal's, and
    // deciding again would collide again. The store's row is the truth.
    const seat = freeSeats(b.supply)[7]!;
    await b.webShop.seats(FLIGHT); // the actor is resident and current
    await b.store.write(async (tx) => {
      await tx.insert(tables.seatInventory).values(seatRow("SH-by-hand", seat));
    });
    const refusedSale = await settle([b.webShop.sellSeat(FLIGHT, seat)]);
    expect(refusedSale.codes).toEqual(["seat_unavailable"]);
    expect((await liveSeatRows(b.store, FLIGHT, seat)).map((r) => r.hold_id)).toEqual(["SH-by-hand"]);
  });
});

describe("partner_stock_units", () => {
  test("a unit beyond the stock, a second live row on a unit and a second unit for one order are rejected", async () => {
    const store = b.store;
    await store.write(async (tx) => {
      await tx.insert(tables.partnerStockUnits).values(unitRow("PH-1", "ORD-1", 0));
    });
    expect(await refused(store, (tx) => tx.insert(tables.partnerStockUnits).values(unitRow("PH-2", "ORD-2", 3)))).toBe(true);
    expect(await refused(store, (tx) => tx.insert(tables.partnerStockUnits).values(unitRow("PH-2", "ORD-2", -1)))).toBe(true);
    expect(await refused(store, (tx) => tx.insert(tables.partnerStockUnits).values(unitRow("PH-2", "ORD-2", 0, "held")))).toBe(true);
    expect(await refused(store, (tx) => tx.insert(tables.partnerStockUnits).values(unitRow("PH-2", "ORD-1", 1)))).toBe(true);
    // A released unit frees both its slot and its order.
    await store.write(async (tx) => {
      await tx.run(sql`UPDATE partner_stock_units SET status = 'released' WHERE hold_id = 'PH-1'`);
      await tx.insert(tables.partnerStockUnits).values(unitRow("PH-3", "ORD-1", 0));
    });
  });
});
