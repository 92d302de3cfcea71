import type { Clock } from "@ndc/clock";
import { GatewayError, type ErrorCode } from "@ndc/errors";
import type { Store } from "@ndc/store";
import { validateLeg } from "../legs/validate";
import type { LegRequest, PaymentLeg } from "../legs/types";
import type { Money } from "@ndc/money";
import { isDeclineReason } from "../psp/decline-reasons";
import { PspTimeoutError, type PspAuthorisation, type PspSimulator } from "../psp/simulator";
import { KeyedLock } from "@ndc/actors";
import { idFromKey } from "../util";
import { afterEntry, authorisationEntry } from "./balance";
import { appendEntry } from "./hash-chain";
import { fingerprint, readKey, writeKey } from "./idempotency";
import { reserve } from "./instruments";
import { insertLeg, loadLeg, nextSeq, orderLegs, saveLeg } from "./leg-rows";
import { keepPayerAuthentication } from "./payer-authentication-rows";
import { applyStep, checkStep } from "./steps";
import type { ClearanceDesk } from "../clearance/types";

export type AuthoriseOutcome =
  | { status: "authorised"; leg: PaymentLeg }
  | { status: "declined"; leg: PaymentLeg; code: ErrorCode }
  /** The PSP timed out: the leg waits in `authorising` for resolveUnknown (the reconciler). */
  | { status: "unknown"; leg: PaymentLeg };

function outcomeOf(leg: PaymentLeg): AuthoriseOutcome {
  if (leg.state === "authorising") return { status: "unknown", leg };
  if (leg.state === "declined") return { status: "declined", leg, code: (leg.declineCode ?? "payment_declined") as ErrorCode };
  return { status: "authorised", leg };
}

/**
 * The payment ledger: one leg at a time, each step idempotent by key. The PSP is called outside
 * any transaction (medusa): a recovery point (leg `authorising`, key `in_flight`) is written
 * first, the answer recorded after, so a crash in between is finished by a retry with the same
 * key or by the reconciler. Steps on one order are serialised like an actor's mailbox, under
 * the order's payment lock (reentrant, shared with OrderPayments' order-level operations).
 */
export class PaymentLedger {
  constructor(
    readonly store: Store,
    readonly psp: PspSimulator,
    readonly clock: Clock,
    private readonly lock: KeyedLock = new KeyedLock(),
    /** Settlement legs' clearances (the gateway's); without it no clearance is requested. */
    readonly clearance?: ClearanceDesk,
  ) {}

  leg(legId: string): Promise<PaymentLeg> {
    return loadLeg(this.store.db, legId);
  }

  legs(orderId: string): Promise<PaymentLeg[]> {
    return orderLegs(this.store.db, orderId);
  }

  /** Authorises one leg for `changeRef` (the sale or a post-sale change) of the order; `seq` when its place was planned. */
  async authorise(orderId: string, changeRef: string, req: LegRequest, key: string, seq?: number): Promise<AuthoriseOutcome> {
    validateLeg(req);
    const fp = fingerprint({ orderId, changeRef, req });
    const legId = idFromKey("PL", key);
    return this.lock.run(orderId, async () => {
      const first = await this.store.write(async (tx) => {
        const rec = await readKey<AuthoriseOutcome>(tx, key, "authorise", fp);
        if (rec?.state === "done") return { done: rec.response! };
        if (rec) return { resume: true as const };
        const now = this.clock.now();
        const leg: PaymentLeg = {
          legId, orderId, changeRef, seq: seq ?? (await nextSeq(tx, orderId)), kind: req.kind, state: "authorising",
          currency: req.amount.currency, requested: req.amount.amount, authorised: 0, captured: 0, refunded: 0,
          authoriseKey: key, pointsCaptured: 0, pointsRefunded: 0, createdAt: now,
        };
        if (req.kind === "card") {
          await insertLeg(tx, leg);
          await keepPayerAuthentication(tx, legId, req, now);
          await writeKey(tx, key, "authorise", fp, "in_flight", undefined, now);
          return { resume: true as const };
        }
        const r = await reserve(tx, req, legId, now);
        // A declined leg still names what the seller offered, so PAYSUM can say which leg failed.
        const asked = requestedInstrument(req);
        const entry = { type: "declined" in r ? ("decline" as const) : ("authorise" as const), amount: req.amount.amount };
        const done: PaymentLeg =
          "declined" in r
            ? { ...leg, ...asked, ...afterEntry(leg, entry), declineCode: r.declined, endedAt: now }
            : { ...leg, ...asked, ...r.fields, ...afterEntry(leg, entry) };
        await insertLeg(tx, done);
        await appendEntry(tx, { orderId, legId, ...entry, currency: req.amount.currency, points: done.points, idempotencyKey: key, at: now });
        const outcome = outcomeOf(done);
        await writeKey(tx, key, "authorise", fp, "done", outcome, now);
        return { done: outcome };
      });
      if ("done" in first) return first.done as NonNullable<typeof first.done>;
      const card = req as Extract<LegRequest, { kind: "card" }>;
      let answer: PspAuthorisation;
      try {
        answer = await this.psp.authorise({ idempotencyKey: key, token: card.token, amount: card.amount, authentication: card.authentication });
      } catch (e) {
        if (e instanceof PspTimeoutError) return { status: "unknown", leg: await this.leg(legId) };
        throw e;
      }
      return this.recordAuthorisation(legId, answer, "payment_declined");
    });
  }

  /**
   * The reconciler's question for a leg left `authorising`: asks the PSP by the leg's key. A PSP
   * that never saw the key authorised nothing, so the leg is closed as declined.
   */
  async resolveUnknown(legId: string): Promise<AuthoriseOutcome> {
    const leg0 = await this.leg(legId);
    return this.lock.run(leg0.orderId, async () => {
      const leg = await this.leg(legId);
      if (leg.state !== "authorising") return outcomeOf(leg);
      // A PSP silent here too leaves the leg `authorising`: whether money was taken is unknown, so
      // nothing may be decided on it; the caller answers psp_unavailable and the reconciler asks again.
      const status = (await this.psp.status(leg.authoriseKey).catch((e: unknown) => {
        if (e instanceof PspTimeoutError) throw new GatewayError("psp_unavailable", { detail: `Leg ${legId}: the authorisation's outcome is not known yet.` });
        throw e;
      })) as PspAuthorisation | undefined;
      const answer: PspAuthorisation = status ?? { status: "declined", reason: "not_received", brand: "", lastFour: "" };
      return this.recordAuthorisation(legId, answer, status ? "payment_declined" : "psp_unavailable");
    });
  }

  private recordAuthorisation(legId: string, answer: PspAuthorisation, declineCode: ErrorCode): Promise<AuthoriseOutcome> {
    return this.store.write(async (tx) => {
      const leg = await loadLeg(tx, legId);
      if (leg.state !== "authorising") return outcomeOf(leg);
      const now = this.clock.now();
      const entry = authorisationEntry(answer, leg.requested);
      const next: PaymentLeg =
        answer.status === "authorised"
          ? { ...leg, ...afterEntry(leg, entry), cardBrand: answer.brand, cardLast4: answer.lastFour, pspReference: answer.pspReference }
          : {
              ...leg,
              ...afterEntry(leg, entry),
              declineCode,
              endedAt: now,
              ...(answer.brand ? { cardBrand: answer.brand, cardLast4: answer.lastFour } : {}),
              // Only a PSP that answered has a reason; a leg it never saw (psp_unavailable) has none.
              ...(isDeclineReason(answer.reason) ? { declineReason: answer.reason } : {}),
            };
      await saveLeg(tx, next);
      await appendEntry(tx, { orderId: leg.orderId, legId, ...entry, currency: leg.currency, idempotencyKey: leg.authoriseKey, at: now });
      const outcome = outcomeOf(next);
      await writeKey(tx, leg.authoriseKey, "authorise", "", "done", outcome, now);
      return outcome;
    });
  }

  capture(legId: string, key: string, amount?: Money | number): Promise<PaymentLeg> {
    return this.step("capture", legId, key, amount);
  }

  void(legId: string, key: string): Promise<PaymentLeg> {
    return this.step("void", legId, key, undefined);
  }

  // No refund here: every refund goes through a saga's phases (RefundPayments, phased-refund.ts).
  private async step(step: "capture" | "void", legId: string, key: string, amountIn: Money | number | undefined): Promise<PaymentLeg> {
    const leg0 = await this.leg(legId);
    const amount = typeof amountIn === "object" ? amountIn.amount : amountIn;
    if (typeof amountIn === "object" && amountIn.currency !== leg0.currency) {
      throw new GatewayError("payment_legs_invalid", { detail: `Leg ${legId} is in ${leg0.currency}.` });
    }
    const fp = fingerprint({ step, legId, amount });
    return this.lock.run(leg0.orderId, async () => {
      const first = await this.store.write(async (tx) => {
        const rec = await readKey<PaymentLeg>(tx, key, step, fp);
        if (rec?.state === "done") return { done: rec.response! };
        const leg = await loadLeg(tx, legId);
        const amt = checkStep(step, leg, amount);
        const now = this.clock.now();
        if (leg.kind !== "card") {
          const next = await applyStep(tx, step, leg, amt, key, now, this.clearance);
          await writeKey(tx, key, step, fp, "done", next, now);
          return { done: next };
        }
        if (!rec) await writeKey(tx, key, step, fp, "in_flight", undefined, now);
        return { card: leg, amt };
      });
      if ("done" in first) return first.done as NonNullable<typeof first.done>;
      await this.pspStep(step, first.card, first.amt, key);
      return this.store.write(async (tx) => {
        const rec = await readKey<PaymentLeg>(tx, key, step, fp);
        if (rec?.state === "done") return rec.response!;
        const leg = await loadLeg(tx, legId);
        const amt = checkStep(step, leg, amount);
        const now = this.clock.now();
        const next = await applyStep(tx, step, leg, amt, key, now, this.clearance);
        await writeKey(tx, key, step, fp, "done", next, now);
        return next;
      });
    });
  }

  private async pspStep(step: "capture" | "void", leg: PaymentLeg, amount: number, key: string): Promise<void> {
    const ref = { idempotencyKey: key, pspReference: leg.pspReference! };
    let out;
    try {
      out = step === "void" ? await this.psp.void(ref) : await this.psp.capture({ ...ref, amount });
    } catch (e) {
      // The key stays in_flight: a retry with it finishes the step, and the PSP moves money once.
      if (e instanceof PspTimeoutError) throw new GatewayError("psp_unavailable", { detail: `Leg ${leg.legId}, ${step}.` });
      throw e;
    }
    if (out.status === "refused") throw new GatewayError("payment_leg_state_invalid", { detail: `The PSP refused the ${step} of leg ${leg.legId}.` });
  }
}


/** The instrument as the seller named it (before any account was found for it). */
function requestedInstrument(req: Exclude<LegRequest, { kind: "card" }>): Partial<PaymentLeg> {
  switch (req.kind) {
    case "voucher":
      return { voucherCode: req.code };
    case "settlement":
      return req.method ? { settlementMethod: req.method } : {};
    case "loyalty":
      return { memberAccount: req.memberAccount, certificateId: req.certificateId };
  }
}
