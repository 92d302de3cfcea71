import { mkdtempSync, rmSync } from "node:fs";
import { databaseUrlFor, dropDatabaseFor } from "../support/database";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { ActorSystem } from "@ndc/actors";
import { ManualClock } from "@ndc/clock";
import { isGatewayError } from "@ndc/errors";
import { InventoryService } from "@ndc/inventory";
import { OrdersService, type OrderCreateInput, type Seller } from "@ndc/orders";
import { OrderPayments, SANDBOX_AGENCY, seedPayments, type LegRequest } from "@ndc/payments";
import type { FieldKey } from "@ndc/pii";
import { OfferRepository, type ALaCartePayload, type FlightOfferPayload } from "@ndc/shopping";
import { migrate, openStore, type Store } from "@ndc/store";
import { createSupply, type Supply } from "@ndc/supply";

export const FLIGHT = "XB-132-2026-11-22";
export const OWNER = "XB";
export const SELLER: Seller = { clientId: "client-a", agencyId: SANDBOX_AGENCY };
export const OTHER_SELLER: Seller = { clientId: "client-b", agencyId: "OTHER-AGENCY" };
export const FIELD_KEY: FieldKey = { key: new Uint8Array(32).fill(7), version: 1 };
/** A document number distinctive enough to search the database file for. */
export const DOC_NUMBER = "ZQ9X8W7V6U5";

export interface Booted {
  dir: string;
  url: string;
  store: Store;
  clock: ManualClock;
  system: ActorSystem;
  supply: Supply;
  inventory: InventoryService;
  payments: OrderPayments;
  offers: OfferRepository;
  orders: OrdersService;
  close(): Promise<void>;
}

export function tempDir(): { dir: string; url: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "ndc-orders-"));
  return {
    dir,
    url: databaseUrlFor(dir),
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      dropDatabaseFor(dir);
    },
  };
}

/** The order domain as the gateway assembles it, on a migrated, seeded store. */
export async function boot(url: string, opts: { clock?: ManualClock; dir?: string } = {}): Promise<Booted> {
  const store = await openStore(url);
  await migrate(store);
  await seedPayments(store);
  const clock = opts.clock ?? new ManualClock();
  const supply = createSupply({ seed: "test-seed", startDate: "2026-11-21", designator: OWNER });
  const system = new ActorSystem({ store, clock, limits: { idleMs: 60_000, mailboxLimit: 10_000 }, sweepEveryMs: false });
  const inventory = new InventoryService({ system, store, supply, clock });
  const payments = new OrderPayments(store, clock);
  const offers = new OfferRepository(store, clock);
  const orders = new OrdersService({ system, store, clock, inventory, payments, offers, supply, fieldKey: FIELD_KEY, ownerCode: OWNER });
  return {
    dir: opts.dir ?? "",
    url,
    store,
    clock,
    system,
    supply,
    inventory,
    payments,
    offers,
    orders,
    close: async () => {
      await system.close();
      await store.close();
    },
  };
}

export function freeSeats(supply: Supply, flightKey = FLIGHT): string[] {
  return supply.seatMap(flightKey)!.cabins.flatMap((c) => c.seats).filter((s) => s.availability === "available").map((s) => s.id);
}

export interface ShopOptions {
  tag: string;
  seats?: string[];
  partners?: string[];
  pax?: number;
  seller?: Seller;
  currency?: string;
  surcharge?: number;
  /** The flight's fare brand; default LIGHT (cancellable, not refundable). */
  brand?: string;
}

/**
 * Stores what AirShopping and ServiceList would have issued: a flight offer (EUR 200.00 per
 * passenger) and an a-la-carte offer with the given seats (15.00 each) and partner products.
 */
export async function shop(b: Booted, o: ShopOptions): Promise<{ flightOfferId: string; extrasOfferId?: string; total: number }> {
  const paxIds = Array.from({ length: o.pax ?? 1 }, (_, i) => `PAX${i + 1}`);
  const flightOfferId = `OF-${o.tag}`;
  const flightMinor = 20_000 * paxIds.length + (o.surcharge ?? 0);
  const flight: FlightOfferPayload = {
    kind: "flight",
    currency: o.currency ?? "EUR",
    language: "en",
    pax: paxIds.map((paxId) => ({ paxId, ptc: "ADT" })),
    journeys: [{ paxJourneyId: "PJ1", brandCode: o.brand ?? "LIGHT", cabin: "Y", flightKeys: [FLIGHT], paxSegmentIds: ["SEG1"] }],
    items: [{ offerItemId: `${flightOfferId}-ADT`, kind: "flight", paxIds, totalMinor: flightMinor, ref: "ADT" }],
    totalMinor: flightMinor,
    ...(o.surcharge ? { adjustments: [{ ruleId: "R-SUR", offerItemId: `${flightOfferId}-ADT`, effect: "surcharge" as const, minor: o.surcharge }] } : {}),
  };
  const now = b.clock.now();
  const owner = o.seller ?? SELLER;
  const saved = [{ offerId: flightOfferId, source: "air_shopping" as const, owner, createdAt: now, expiresAt: now + 3_600_000, payload: flight }];
  let total = flightMinor;
  let extrasOfferId: string | undefined;
  if (o.seats?.length || o.partners?.length) {
    extrasOfferId = `AL-${o.tag}`;
    const items: ALaCartePayload["items"] = [
      ...(o.seats ?? []).map((seat, i) => ({ offerItemId: `${extrasOfferId}-S${i}`, kind: "seat" as const, paxIds: [paxIds[i % paxIds.length]!], totalMinor: 1_500, ref: seat, flightKeys: [FLIGHT] })),
      ...(o.partners ?? []).map((code, i) => ({ offerItemId: `${extrasOfferId}-P${i}`, kind: "partner_product" as const, paxIds: [paxIds[0]!], totalMinor: 1_290, ref: code })),
    ];
    total += items.reduce((s, it) => s + it.totalMinor, 0);
    saved.push({ offerId: extrasOfferId, source: "service_list" as never, owner, createdAt: now, expiresAt: now + 3_600_000, payload: { kind: "a_la_carte", currency: o.currency ?? "EUR", language: "en", flightOfferId, items } as never });
  }
  await b.offers.save(saved);
  return { flightOfferId, extrasOfferId, total };
}

export function orderInput(tag: string, shopped: { flightOfferId: string; extrasOfferId?: string }, o: { pax?: number; payment?: LegRequest[]; email?: string | null; seller?: Seller; correlationId?: string; docs?: boolean } = {}): OrderCreateInput {
  const paxIds = Array.from({ length: o.pax ?? 1 }, (_, i) => `PAX${i + 1}`);
  return {
    seller: o.seller ?? SELLER,
    correlationId: o.correlationId ?? `corr-${tag}`,
    trxId: `trx-${tag}`,
    selections: [{ offerId: shopped.flightOfferId, ownerCode: OWNER }, ...(shopped.extrasOfferId ? [{ offerId: shopped.extrasOfferId, ownerCode: OWNER }] : [])],
    passengers: paxIds.map((paxId, i) => ({
      paxId,
      title: "MS",
      givenNames: ["ADA"],
      surname: i === 0 ? "LOVELACE" : `BYRON${i}`,
      birthdate: "1990-12-10",
      ...(o.docs ? { identityDocs: [{ IdentityDocTypeCode: "PT", IdentityDocID: `${DOC_NUMBER}${i}`, Surname: "LOVELACE", IssuingCountryCode: "GB", CitizenshipCountryCode: "GB", ExpiryDate: "2031-01-01" }] } : {}),
    })),
    ...(o.email === null ? {} : { contact: { email: o.email ?? "ada@example.com" } }),
    ...(o.payment ? { payment: o.payment } : {}),
  };
}

export const card = (amount: number, token = "tok_approve_visa"): LegRequest => ({ kind: "card", token, amount: { amount, currency: "EUR" } });
export const voucher = (amount: number, code = "VCH-SANDBOX-EUR-0100"): LegRequest => ({ kind: "voucher", code, amount: { amount, currency: "EUR" } });
export const settlement = (amount: number): LegRequest => ({ kind: "settlement", agencyId: SANDBOX_AGENCY, amount: { amount, currency: "EUR" } });

export async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return "resolved";
  } catch (e) {
    if (isGatewayError(e)) return e.code;
    throw e;
  }
}

/** What the store holds for an order: live holds and its legs' states. */
export async function footprint(store: Store, orderId: string) {
  const seats = (await store.db.all(sql`SELECT seat_id, status FROM seat_inventory WHERE holder = ${orderId} AND status IN ('held','sold') ORDER BY seat_id`)) as { seat_id: string; status: string }[];
  const partners = (await store.db.all(sql`SELECT product_code, status FROM partner_stock_units WHERE order_id = ${orderId} AND status IN ('held','sold')`)) as { product_code: string; status: string }[];
  const legs = (await store.db.all(sql`SELECT leg_id, kind, state FROM payment_legs WHERE order_id = ${orderId} ORDER BY seq`)) as { leg_id: string; kind: string; state: string }[];
  const orders = (await store.db.all(sql`SELECT state, version FROM orders WHERE order_id = ${orderId}`)) as { state: string; version: number }[];
  return { seats, partners, legs, order: orders[0] };
}
