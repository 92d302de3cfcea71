import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { ActorSystem } from "@ndc/actors";
import { ManualClock, type Clock } from "@ndc/clock";
import { isGatewayError } from "@ndc/errors";
import { InventoryService, WebShopChannel, ndcInventory, type ChannelInventory } from "@ndc/inventory";
import { migrate, openStore, type DriverName, type Store } from "@ndc/store";
import { createSupply, type Supply } from "@ndc/supply";

export const DRIVERS: DriverName[] = ["bun-sqlite", "libsql"];
export const START = "2026-11-21";
export const SEED = "test-seed";
/** A 359 with 346 seats, 216 of them free in the simulator for this seed. */
export const FLIGHT = "XB-132-2026-11-22";
export const OTHER_FLIGHT = "XB-130-2026-11-22";

export function testSupply(): Supply {
  return createSupply({ seed: SEED, startDate: START, designator: "XB" });
}

export function freeSeats(supply: Supply, flightKey = FLIGHT): string[] {
  return supply.seatMap(flightKey)!.cabins.flatMap((c) => c.seats).filter((s) => s.availability === "available").map((s) => s.id);
}

export function occupiedSeats(supply: Supply, flightKey = FLIGHT): string[] {
  return supply.seatMap(flightKey)!.cabins.flatMap((c) => c.seats).filter((s) => s.availability === "occupied").map((s) => s.id);
}

export function tempDir(prefix = "ndc-inventory-"): { dir: string; url: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, url: `file:${join(dir, "gateway.db")}`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Booted {
  store: Store;
  system: ActorSystem;
  supply: Supply;
  clock: Clock;
  service: InventoryService;
  ndc: ChannelInventory;
  webShop: WebShopChannel;
  /** Closes the actor system and the store (a clean stop; crash tests kill a process instead). */
  close(): Promise<void>;
}

/** The inventory as the gateway assembles it, on a migrated store. */
export async function boot(url: string, opts: { driver?: DriverName; clock?: Clock; mailboxLimit?: number } = {}): Promise<Booted> {
  const store = await openStore(url, { driver: opts.driver });
  await migrate(store);
  const clock = opts.clock ?? new ManualClock();
  const supply = testSupply();
  const system = new ActorSystem({ store, clock, limits: { idleMs: 60_000, mailboxLimit: opts.mailboxLimit ?? 10_000 }, sweepEveryMs: false });
  const service = new InventoryService({ system, store, supply, clock });
  return {
    store,
    system,
    supply,
    clock,
    service,
    ndc: ndcInventory(service),
    webShop: new WebShopChannel(service),
    close: async () => {
      await system.close();
      await store.close();
    },
  };
}

export interface SeatRow {
  flight_key: string;
  seat_id: string;
  hold_id: string;
  status: string;
  channel: string;
}

export async function liveSeatRows(store: Store, flightKey: string, seatId?: string): Promise<SeatRow[]> {
  const rows = (await store.db.all(
    sql`SELECT flight_key, seat_id, hold_id, status, channel FROM seat_inventory WHERE flight_key = ${flightKey} AND status IN ('held', 'sold') ORDER BY seat_id`,
  )) as SeatRow[];
  return seatId === undefined ? rows : rows.filter((r) => r.seat_id === seatId);
}

/** The wire code of a refusal, or the error itself when it is not one. */
export function codeOf(e: unknown): string {
  if (isGatewayError(e)) return e.code;
  throw e;
}

/** Settles every promise; returns the fulfilled values and the codes of the refusals. */
export async function settle<T>(promises: Promise<T>[]): Promise<{ ok: T[]; codes: string[] }> {
  const results = await Promise.allSettled(promises);
  const ok: T[] = [];
  const codes: string[] = [];
  for (const r of results) {
    if (r.status === "fulfilled") ok.push(r.value);
    else codes.push(codeOf(r.reason));
  }
  return { ok, codes };
}
