import { eq, sql } from "drizzle-orm";
import { preparedOnce, tables, type Store, type StoreDb } from "@ndc/store";
import type { Money } from "@ndc/money";
import { idFromKey } from "../util";
import type { PayerAuthentication } from "../legs/payer-authentication";
import { authenticationDecline } from "./authentication";
import { lookupToken } from "./tokens";

/** The caller never heard back; the PSP may or may not have acted. Ask status(key). */
export class PspTimeoutError extends Error {
  constructor() {
    super("PSP timeout");
    this.name = "PspTimeoutError";
  }
}

export type PspAuthorisation =
  | { status: "authorised"; pspReference: string; brand: string; lastFour: string; amount: number; currency: string }
  | { status: "declined"; reason: string; brand: string; lastFour: string };

export type PspOutcome = { status: "done"; pspReference: string; amount: number } | { status: "refused"; reason: string };

/**
 * A simulated payment service provider. Its books live in their own tables because it stands for
 * an outside system that outlives a gateway crash. Every call is idempotent by key, like a real
 * PSP: a retry returns the first answer and never moves money twice.
 */
export class PspSimulator {
  /**
   * Writes to its own books: they stand for the foreign PSP's state, so the gateway's commit
   * count (test/orders-http/commit-count.test.ts) counts them apart from its own.
   */
  readonly stats = { writes: 0 };

  constructor(private readonly store: Store) {}

  /** What the PSP answered (or would have answered) for this key; undefined if it never saw it. */
  async status(idempotencyKey: string): Promise<PspAuthorisation | PspOutcome | undefined> {
    const rows = (await psp(this.store.db).request.all({ key: idempotencyKey })) as { response: string }[];
    return rows[0] ? JSON.parse(rows[0].response) : undefined;
  }

  /**
   * `authentication`: the 3-D Secure results the seller obtained (PAY3D2). They are judged, never
   * kept: the PSP's books hold its answer only.
   */
  async authorise(req: { idempotencyKey: string; token: string; amount: Money; authentication?: PayerAuthentication }): Promise<PspAuthorisation> {
    const token = lookupToken(req.token);
    const { result, fresh } = await this.once("authorise", req.idempotencyKey, async (tx) => {
      const reason = token.behaviour === "decline" ? (token.reason ?? "declined") : authenticationDecline(token, req.authentication);
      if (reason) {
        return { status: "declined", reason, brand: token.brand, lastFour: token.lastFour } as PspAuthorisation;
      }
      const pspReference = idFromKey("PSP", req.idempotencyKey);
      await psp(tx).insertPayment.run({ pspReference, currency: req.amount.currency, authorised: req.amount.amount });
      return { status: "authorised", pspReference, brand: token.brand, lastFour: token.lastFour, amount: req.amount.amount, currency: req.amount.currency } as PspAuthorisation;
    });
    // Only the first call loses its answer: a retry by key gets the stored authorisation.
    if (fresh && token.behaviour === "timeout_after_success") throw new PspTimeoutError();
    return result;
  }

  capture(req: { idempotencyKey: string; pspReference: string; amount: number }): Promise<PspOutcome> {
    return this.move("capture", req.idempotencyKey, req.pspReference, (p) => {
      if (p.state !== "authorised") return { refused: `payment is ${p.state}` };
      if (req.amount <= 0 || req.amount > p.authorised) return { refused: "amount exceeds authorisation" };
      return { set: { state: "captured", captured: req.amount }, amount: req.amount };
    });
  }

  void(req: { idempotencyKey: string; pspReference: string }): Promise<PspOutcome> {
    return this.move("void", req.idempotencyKey, req.pspReference, (p) => {
      if (p.state !== "authorised") return { refused: `payment is ${p.state}` };
      return { set: { state: "voided" }, amount: p.authorised };
    });
  }

  refund(req: { idempotencyKey: string; pspReference: string; amount: number }): Promise<PspOutcome> {
    return this.move("refund", req.idempotencyKey, req.pspReference, (p) => {
      if (p.state !== "captured") return { refused: `payment is ${p.state}` };
      if (req.amount <= 0 || p.refunded + req.amount > p.captured) return { refused: "amount exceeds capture" };
      return { set: { refunded: p.refunded + req.amount }, amount: req.amount };
    });
  }

  private async move(
    operation: string,
    key: string,
    pspReference: string,
    decide: (p: typeof tables.pspSimPayments.$inferSelect) => { refused: string } | { set: Partial<typeof tables.pspSimPayments.$inferInsert>; amount: number },
  ): Promise<PspOutcome> {
    const { result } = await this.once(operation, key, async (tx) => {
      const rows = (await psp(tx).payment.all({ pspReference })) as (typeof tables.pspSimPayments.$inferSelect)[];
      if (!rows[0]) return { status: "refused", reason: "unknown reference" } as PspOutcome;
      const d = decide(rows[0]);
      if ("refused" in d) return { status: "refused", reason: d.refused } as PspOutcome;
      await tx.update(tables.pspSimPayments).set(d.set).where(eq(tables.pspSimPayments.pspReference, pspReference));
      return { status: "done", pspReference, amount: d.amount } as PspOutcome;
    });
    return result;
  }

  /** Runs `fn` once per key in one transaction with the stored answer; later calls replay it. */
  private async once<T>(operation: string, key: string, fn: (tx: StoreDb) => Promise<T>): Promise<{ result: T; fresh: boolean }> {
    this.stats.writes++;
    return this.store.write(async (tx) => {
      const rows = (await psp(tx).request.all({ key })) as { response: string }[];
      if (rows[0]) return { result: JSON.parse(rows[0].response) as T, fresh: false };
      const result = await fn(tx);
      await psp(tx).insertRequest.run({ key, operation, response: JSON.stringify(result) });
      return { result, fresh: true };
    });
  }
}

// Prepared once per connection: every card leg of a paid OrderCreate asks the PSP twice (issue 8).
const R = tables.pspSimRequests;
const P = tables.pspSimPayments;
const psp = preparedOnce((db) => ({
  request: db.select({ response: R.response }).from(R).where(eq(R.idempotencyKey, sql.placeholder("key"))).prepare(),
  insertRequest: db.insert(R).values({ idempotencyKey: sql.placeholder("key"), operation: sql.placeholder("operation"), response: sql.placeholder("response") }).prepare(),
  payment: db.select().from(P).where(eq(P.pspReference, sql.placeholder("pspReference"))).prepare(),
  insertPayment: db
    .insert(P)
    .values({ pspReference: sql.placeholder("pspReference"), state: "authorised", currency: sql.placeholder("currency"), authorised: sql.placeholder("authorised") })
    .prepare(),
}));
