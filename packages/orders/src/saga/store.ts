import { and, eq, lte, sql } from "drizzle-orm";
import { preparedOnce, tables, type Store, type StoreDb } from "@ndc/store";
import type { Seller } from "../state";

export type SagaKind = "order_create" | "payment_retry";
export type SagaStatus = "running" | "done" | "compensated";

export interface SagaRow<P> {
  sagaId: string;
  kind: SagaKind;
  orderId: string;
  owner: Seller;
  step: string;
  status: SagaStatus;
  plan: P;
  errorCode?: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * The saga table: each recovery point is one short write, made before the step it announces is
 * taken (so a crash leaves a row that says what may have been done) or right after it.
 */
export class SagaStore {
  constructor(private readonly store: Store) {}

  async load<P>(sagaId: string): Promise<SagaRow<P> | undefined> {
    const rows = (await selectSaga(this.store.db).all({ sagaId })) as (typeof tables.sagas.$inferSelect)[];
    return rows[0] ? rowOf<P>(rows[0]) : undefined;
  }

  /** Inserts the saga's first recovery point; an existing row (a concurrent start) is returned instead. */
  async start<P>(row: Omit<SagaRow<P>, "status" | "updatedAt" | "errorCode">): Promise<SagaRow<P>> {
    await this.store.write((tx) =>
      tx
        .insert(tables.sagas)
        .values({
          sagaId: row.sagaId,
          kind: row.kind,
          orderId: row.orderId,
          ownerClientId: row.owner.clientId,
          ownerAgencyId: row.owner.agencyId,
          step: row.step,
          status: "running",
          plan: JSON.stringify(row.plan),
          createdAt: row.createdAt,
          updatedAt: row.createdAt,
        })
        .onConflictDoNothing(),
    );
    return (await this.load<P>(row.sagaId))!;
  }

  /** `alsoInTx` writes what must be durable together with this recovery point (in its transaction). */
  async mark<P>(
    saga: SagaRow<P>,
    step: string,
    now: number,
    opts: { plan?: P; status?: SagaStatus; errorCode?: string; alsoInTx?: (tx: StoreDb) => Promise<void> } = {},
  ): Promise<SagaRow<P>> {
    const next: SagaRow<P> = { ...saga, step, plan: opts.plan ?? saga.plan, status: opts.status ?? saga.status, errorCode: opts.errorCode ?? saga.errorCode, updatedAt: now };
    await this.store.write(async (tx) => {
      await tx
        .update(tables.sagas)
        .set({ step, plan: JSON.stringify(next.plan), status: next.status, errorCode: next.errorCode ?? null, updatedAt: now })
        .where(eq(tables.sagas.sagaId, saga.sagaId));
      await opts.alsoInTx?.(tx);
    });
    return next;
  }

  /**
   * Runs a compensated saga again from its first recovery point (its earlier run left nothing
   * behind), for another order id and plan. One write, as `start` is for a first run.
   */
  async restart<P>(saga: SagaRow<P>, orderId: string, step: string, plan: P, now: number): Promise<SagaRow<P>> {
    await this.store.write((tx) =>
      tx
        .update(tables.sagas)
        .set({ orderId, step, status: "running", plan: JSON.stringify(plan), errorCode: null, updatedAt: now })
        .where(and(eq(tables.sagas.sagaId, saga.sagaId), eq(tables.sagas.status, "compensated"))),
    );
    return (await this.load<P>(saga.sagaId))!;
  }

  /** Sagas still running whose last recovery point is at or before `before`. */
  async open(before: number): Promise<SagaRow<unknown>[]> {
    const rows = await this.store.db
      .select()
      .from(tables.sagas)
      .where(and(eq(tables.sagas.status, "running"), lte(tables.sagas.updatedAt, before)));
    return rows.map((r) => rowOf(r));
  }
}

function rowOf<P>(r: typeof tables.sagas.$inferSelect): SagaRow<P> {
  return {
    sagaId: r.sagaId,
    kind: r.kind as SagaKind,
    orderId: r.orderId,
    owner: { clientId: r.ownerClientId, agencyId: r.ownerAgencyId },
    step: r.step,
    status: r.status as SagaStatus,
    plan: JSON.parse(r.plan) as P,
    errorCode: r.errorCode ?? undefined,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

// Prepared once per connection: every OrderCreateRQ reads its saga (issue 8).
const selectSaga = preparedOnce((db) => db.select().from(tables.sagas).where(eq(tables.sagas.sagaId, sql.placeholder("sagaId"))).limit(1).prepare());
