import { and, eq, lt, sql } from "drizzle-orm";
import type { Clock } from "@ndc/clock";
import { GatewayError } from "@ndc/errors";
import { preparedOnce, type Store, type StoreDb } from "@ndc/store";
import * as tables from "../tables";
import { payloadJson } from "./payload";

/** The seller an offer was issued to: only it can price, order or list services for it. */
export interface OfferOwner {
  clientId: string;
  agencyId: string;
}

export type OfferSource = "air_shopping" | "offer_price" | "service_list" | "seat_availability" | "order_quote";

export interface StoredOffer<P = unknown> {
  offerId: string;
  source: OfferSource;
  owner: OfferOwner;
  createdAt: number;
  expiresAt: number;
  payload: P;
}

/** Rows per INSERT: 7 parameters each, far below SQLite's parameter limit. */
const BATCH = 100;

/** The placeholder names of row k, made once rather than seven template strings per row saved. */
const PARAM_NAMES = Array.from({ length: BATCH }, (_, k) => ({ id: `id${k}`, src: `src${k}`, cli: `cli${k}`, agy: `agy${k}`, at: `at${k}`, exp: `exp${k}`, pl: `pl${k}` }));

/**
 * One multi-row upsert per batch, built and prepared once per connection and row count (an
 * AirShopping answer stores one batch of the same size each time), so saving costs one bound
 * statement instead of building drizzle SQL per call. Few row counts occur (bounded anyway).
 */
const upserts = new WeakMap<StoreDb, Map<number, ReturnType<typeof buildUpsert>>>();

function upsert(tx: StoreDb, n: number) {
  let byCount = upserts.get(tx);
  if (!byCount) upserts.set(tx, (byCount = new Map()));
  let stmt = byCount.get(n);
  if (!stmt) {
    if (byCount.size >= 32) byCount.clear();
    byCount.set(n, (stmt = buildUpsert(tx, n)));
  }
  return stmt;
}

function buildUpsert(tx: StoreDb, n: number) {
  const p = sql.placeholder;
  const values = PARAM_NAMES.slice(0, n).map((k) => ({
    offerId: p(k.id),
    source: p(k.src),
    ownerClientId: p(k.cli),
    ownerAgencyId: p(k.agy),
    createdAt: p(k.at),
    expiresAt: p(k.exp),
    payload: p(k.pl),
  }));
  return tx
    .insert(tables.offers)
    .values(values as never)
    .onConflictDoUpdate({
      target: tables.offers.offerId,
      set: {
        source: sql`excluded.source`,
        ownerClientId: sql`excluded.owner_client_id`,
        ownerAgencyId: sql`excluded.owner_agency_id`,
        createdAt: sql`excluded.created_at`,
        expiresAt: sql`excluded.expires_at`,
        payload: sql`excluded.payload`,
      },
    })
    .prepare();
}

/** The offer of an id issued to an agency: prepared once per connection (OfferPrice, OrderCreate, ServiceList resolve offers). */
const selectOffer = preparedOnce((db) =>
  db
    .select()
    .from(tables.offers)
    .where(and(eq(tables.offers.offerId, sql.placeholder("offerId")), eq(tables.offers.ownerAgencyId, sql.placeholder("agencyId"))))
    .limit(1)
    .prepare(),
);

type OfferRow = {
  offerId: string;
  source: OfferSource;
  ownerClientId: string;
  ownerAgencyId: string;
  createdAt: number;
  expiresAt: number;
  payload: string;
};

/**
 * Offers kept until they expire, so OfferPrice and OrderCreate resolve what AirShopping issued
 * (spec 4.7). Offers are immutable once issued: saving is an upsert, no actor needed.
 *
 * Each save is one write of the store: saves of overlapping shops share one transaction and one
 * fsync through the store's group commit (packages/store/src/commit-queue.ts), the one batching
 * mechanism, and a save resolves only once its commit is durable, so no answer ever names an
 * offer that is not stored. A failed commit fails every save in it; each caller answers an error.
 */
export class OfferRepository {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  save(offers: readonly StoredOffer[]): Promise<void> {
    if (offers.length === 0) return Promise.resolve();
    const rows: OfferRow[] = offers.map((o) => ({
      offerId: o.offerId,
      source: o.source,
      ownerClientId: o.owner.clientId,
      ownerAgencyId: o.owner.agencyId,
      createdAt: o.createdAt,
      expiresAt: o.expiresAt,
      payload: payloadJson(o.payload as object),
    }));
    return this.store.write(async (tx) => {
      // Ids are derived from the seed and the request, so re-shopping the same thing re-issues the
      // same id: the newer issue (owner, expiry, payload) replaces the older.
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH);
        const params: Record<string, string | number> = {};
        batch.forEach((r, k) => {
          const n = PARAM_NAMES[k]!;
          params[n.id] = r.offerId;
          params[n.src] = r.source;
          params[n.cli] = r.ownerClientId;
          params[n.agy] = r.ownerAgencyId;
          params[n.at] = r.createdAt;
          params[n.exp] = r.expiresAt;
          params[n.pl] = r.payload;
        });
        await upsert(tx, batch.length).run(params);
      }
    });
  }

  /**
   * The offer issued to this seller. Another seller's offer is answered exactly like a missing
   * one (offer_not_found), so offer ids reveal nothing across sellers.
   */
  async resolve<P>(offerId: string, owner: OfferOwner, element = "OfferID"): Promise<StoredOffer<P>> {
    const rows = (await selectOffer(this.store.db).all({ offerId, agencyId: owner.agencyId })) as (typeof tables.offers.$inferSelect)[];
    const row = rows[0];
    if (!row) throw new GatewayError("offer_not_found", { detail: `OfferID ${offerId.slice(0, 64)}.`, element });
    if (row.expiresAt <= this.clock.now()) {
      throw new GatewayError("offer_expired", { detail: `OfferID ${offerId.slice(0, 64)} expired at ${new Date(row.expiresAt).toISOString()}.`, element });
    }
    return {
      offerId: row.offerId,
      source: row.source as OfferSource,
      owner: { clientId: row.ownerClientId, agencyId: row.ownerAgencyId },
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      payload: JSON.parse(row.payload) as P,
    };
  }

  /** Drops offers expired before `now` (a scheduler job); returns how many went. */
  async purgeExpired(now = this.clock.now()): Promise<number> {
    return this.store.write(async (tx) => {
      const gone = await tx.delete(tables.offers).where(lt(tables.offers.expiresAt, now)).returning({ id: tables.offers.offerId });
      return gone.length;
    });
  }
}
