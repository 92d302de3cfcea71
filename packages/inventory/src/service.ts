import { and, eq, lte } from "drizzle-orm";
import { jointAsk, type ActorRef, type ActorSystem, type JointAsk, type Journaled } from "@ndc/actors";
import type { Clock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import { isConstraintViolation, tables, type Store } from "@ndc/store";
import type { Supply } from "@ndc/supply";
import type { PartnerCommand, PartnerHold, PartnerReply, PartnerStock } from "./partners/commands";
import { partnerStockKind } from "./partners/kind";
import type { PartnerStockValue } from "./partners/state";
import type { SeatAvailability, SeatCommand, SeatHold, SeatReply } from "./seats/commands";
import { seatInventoryKind } from "./seats/kind";
import type { SeatInventoryValue } from "./seats/state";
import type { Channel } from "./types";
import type { Keeps } from "./holdable/types";

export interface InventoryServiceOptions {
  system: ActorSystem;
  store: Store;
  supply: Supply;
  clock: Clock;
  /** Hold lifetime when a caller gives no expiry. */
  defaultHoldMs?: number;
  /** Partner stock per product code; defaults to the supply's PARTNER_PRODUCTS. */
  partnerStockOf?: (code: string) => number | undefined;
}

export interface SeatRequest {
  flightKey: string;
  seatIds: string[];
  /** Who the seats are for: an order id, a web-shop basket. */
  holder: string;
  channel: Channel;
  expiresAt?: number;
  /** The caller's own id, so a retried step finds its hold instead of taking a second one. */
  holdId?: string;
}

export interface PartnerRequest {
  productCode: string;
  orderId: string;
  channel: Channel;
  expiresAt?: number;
  holdId?: string;
}

const DEFAULT_HOLD_MS = 15 * 60_000;

/**
 * The one door to seats and partner stock for every sales channel (DESIGN 4): each call is a
 * command to the flight's or the product's actor, so NDC and the web shop are decided one
 * after the other against the same state. Refusals are thrown as GatewayErrors.
 */
export class InventoryService {
  private readonly seats: ActorRef<Journaled<SeatInventoryValue>, SeatCommand, SeatReply>;
  private readonly partners: ActorRef<Journaled<PartnerStockValue>, PartnerCommand, PartnerReply>;
  private readonly holdMs: number;

  constructor(private readonly opts: InventoryServiceOptions) {
    this.seats = opts.system.register(seatInventoryKind(opts.supply));
    this.partners = opts.system.register(partnerStockKind({ stockOf: opts.partnerStockOf }));
    this.holdMs = opts.defaultHoldMs ?? DEFAULT_HOLD_MS;
  }

  /** Takes the seats until the expiry; all of them or none. */
  async holdSeats(r: SeatRequest): Promise<SeatHold> {
    return this.seatHold(r, "hold");
  }

  /** Hold and confirm as one durable step: for a channel that has already been paid. */
  async sellSeats(r: SeatRequest): Promise<SeatHold> {
    return this.seatHold(r, "sell");
  }

  async confirmSeats(flightKey: string, holdId: string): Promise<SeatHold> {
    return holdOf(await this.askSeats(flightKey, { op: "confirm", holdId }));
  }

  /** Frees a hold or a sale; releasing twice is answered with the released record. */
  async releaseSeats(flightKey: string, holdId: string): Promise<SeatHold> {
    return holdOf(await this.askSeats(flightKey, { op: "release", holdId }));
  }

  /** Expires the flight's holds past their time; returns their ids. */
  async expireSeatHolds(flightKey: string): Promise<string[]> {
    const reply = await this.askSeats(flightKey, { op: "expire" });
    return reply.kind === "expired" ? reply.holdIds : [];
  }

  async seatAvailability(flightKey: string): Promise<SeatAvailability> {
    // Checked first so an unknown key never gets an actor.
    if (!this.opts.supply.flight(flightKey)) throw new GatewayError("flight_not_found", { detail: `(${flightKey})` });
    const reply = await this.askSeats(flightKey, { op: "availability" });
    if (reply.kind !== "availability") throw new Error(`unexpected seat reply ${reply.kind}`);
    return reply.availability;
  }

  async holdPartnerProduct(r: PartnerRequest): Promise<PartnerHold> {
    return this.partnerHold(r, "hold");
  }

  async sellPartnerProduct(r: PartnerRequest): Promise<PartnerHold> {
    return this.partnerHold(r, "sell");
  }

  async confirmPartnerProduct(productCode: string, holdId: string): Promise<PartnerHold> {
    return holdOf(await this.askPartner(productCode, { op: "confirm", holdId }));
  }

  async releasePartnerProduct(productCode: string, holdId: string): Promise<PartnerHold> {
    return holdOf(await this.askPartner(productCode, { op: "release", holdId }));
  }

  async expirePartnerHolds(productCode: string): Promise<string[]> {
    const reply = await this.askPartner(productCode, { op: "expire" });
    return reply.kind === "expired" ? reply.holdIds : [];
  }

  async partnerStock(productCode: string): Promise<PartnerStock> {
    const reply = await this.askPartner(productCode, { op: "stock" });
    if (reply.kind !== "stock") throw new Error(`unexpected partner reply ${reply.kind}`);
    return reply.stock;
  }

  /**
   * The same hold and confirm commands, as asks for a joint write with other actors
   * (askTogether: an OrderCreate opens its operation with its holds in one transaction). A
   * refusal reply is thrown before anything is written, as the commands above throw it.
   */
  readonly joint = {
    holdSeats: (r: SeatRequest): JointAsk<SeatReply> => this.seatAsk(r.flightKey, this.seatHoldCommand(r, "hold")),
    confirmSeats: (flightKey: string, holdId: string, releases?: string, keeps?: Keeps): JointAsk<SeatReply> =>
      this.seatAsk(flightKey, { op: "confirm", holdId, ...(releases ? { releases } : {}), ...(keeps ? { keeps } : {}) }),
    holdPartnerProduct: (r: PartnerRequest): JointAsk<PartnerReply> => this.partnerAsk(r.productCode, this.partnerHoldCommand(r, "hold")),
    confirmPartnerProduct: (productCode: string, holdId: string): JointAsk<PartnerReply> => this.partnerAsk(productCode, { op: "confirm", holdId }),
    /** A hold or a sale freed to every channel (a cancellation writes these with its cancelled state, a seat change with its new seat). */
    releaseSeats: (flightKey: string, holdId: string, keeps?: Keeps): JointAsk<SeatReply> => this.seatAsk(flightKey, { op: "release", holdId, ...(keeps ? { keeps } : {}) }),
    releasePartnerProduct: (productCode: string, holdId: string): JointAsk<PartnerReply> => this.partnerAsk(productCode, { op: "release", holdId }),
  };

  private seatAsk(flightKey: string, command: SeatCommand): JointAsk<SeatReply> {
    return jointAsk(this.seats, flightKey, command, (reply) => void holdOf(reply));
  }

  private partnerAsk(productCode: string, command: PartnerCommand): JointAsk<PartnerReply> {
    return jointAsk(this.partners, productCode, command, (reply) => void holdOf(reply));
  }

  /**
   * Expires every hold past its time, found through the store's expiry index so actors that
   * are not in memory are covered too. For the scheduler's sweep; each key's actor decides.
   */
  async expireDue(): Promise<{ seatHolds: number; partnerHolds: number }> {
    const now = this.opts.clock.now();
    const { seatInventory, partnerStockUnits } = tables;
    const flights = await this.opts.store.db
      .selectDistinct({ key: seatInventory.flightKey })
      .from(seatInventory)
      .where(and(eq(seatInventory.status, "held"), lte(seatInventory.expiresAt, now)));
    const products = await this.opts.store.db
      .selectDistinct({ key: partnerStockUnits.productCode })
      .from(partnerStockUnits)
      .where(and(eq(partnerStockUnits.status, "held"), lte(partnerStockUnits.expiresAt, now)));
    let seatHolds = 0;
    let partnerHolds = 0;
    for (const f of flights) seatHolds += (await this.expireSeatHolds(f.key)).length;
    for (const p of products) partnerHolds += (await this.expirePartnerHolds(p.key)).length;
    return { seatHolds, partnerHolds };
  }

  private async seatHold(r: SeatRequest, op: "hold" | "sell"): Promise<SeatHold> {
    return holdOf(await this.askSeats(r.flightKey, this.seatHoldCommand(r, op), "seat_unavailable"));
  }

  private seatHoldCommand(r: SeatRequest, op: "hold" | "sell"): SeatCommand {
    const expiresAt = r.expiresAt ?? this.opts.clock.now() + this.holdMs;
    return { op, seatIds: r.seatIds, holder: r.holder, channel: r.channel, expiresAt, holdId: r.holdId };
  }

  private async partnerHold(r: PartnerRequest, op: "hold" | "sell"): Promise<PartnerHold> {
    return holdOf(await this.askPartner(r.productCode, this.partnerHoldCommand(r, op), "partner_product_sold_out"));
  }

  private partnerHoldCommand(r: PartnerRequest, op: "hold" | "sell"): PartnerCommand {
    const expiresAt = r.expiresAt ?? this.opts.clock.now() + this.holdMs;
    return { op, orderId: r.orderId, channel: r.channel, expiresAt, holdId: r.holdId };
  }

  private askSeats(flightKey: string, command: SeatCommand, onConflict?: "seat_unavailable"): Promise<SeatReply> {
    return ask(() => this.seats.ask(flightKey, command), onConflict, flightKey);
  }

  private askPartner(code: string, command: PartnerCommand, onConflict?: "partner_product_sold_out"): Promise<PartnerReply> {
    return ask(() => this.partners.ask(code, command), onConflict, code);
  }
}

/**
 * A write that lost its key to another process (the journal's seq taken first) was already
 * caught up and decided again by the actor runtime (decision 0040: DECIDE_ATTEMPTS, then
 * actor_busy), so no retry here. What still arrives as a constraint violation is a different
 * failure: the journal did not move, yet seat_inventory or partner_stock_units holds a live claim
 * the actor's state does not know (a row written outside the actor: a repair by hand, a bug).
 * Deciding again would read the same journal and collide again; the store is the truth, so a
 * hold or sale is refused with its business code (never a double sale, never a 500 for a seller).
 * Any other command meeting it is a fault and is thrown as it is.
 */
async function ask<R>(run: () => Promise<R>, onConflict: "seat_unavailable" | "partner_product_sold_out" | undefined, key: string): Promise<R> {
  try {
    return await run();
  } catch (e) {
    if (onConflict && isConstraintViolation(e)) throw new GatewayError(onConflict, { detail: `(${key}: refused by the store)` });
    throw e;
  }
}

function holdOf<H>(reply: { kind: "hold"; hold: H } | { kind: string }): H {
  if (reply.kind === "hold") return (reply as { hold: H }).hold;
  if (reply.kind === "refused") {
    const r = reply as unknown as { code: ConstructorParameters<typeof GatewayError>[0]; detail: string };
    throw new GatewayError(r.code, { detail: r.detail });
  }
  throw new Error(`unexpected inventory reply ${reply.kind}`);
}
