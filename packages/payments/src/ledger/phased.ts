import { GatewayError, type ErrorCode } from "@ndc/errors";
import type { StoreDb } from "@ndc/store";
import type { LegRequest, PaymentLeg } from "../legs/types";
import { validateLegs } from "../legs/validate";
import { isDeclineReason } from "../psp/decline-reasons";
import { PspTimeoutError, type PspAuthorisation, type PspSimulator } from "../psp/simulator";
import { idFromKey } from "../util";
import { afterEntry, authorisationEntry } from "./balance";
import { appendEntry } from "./hash-chain";
import { keepPayerAuthentication } from "./payer-authentication-rows";
import { deleteLeg, insertPlannedLeg, nextSeq, orderLegs, saveLeg } from "./leg-rows";
import type { PaymentLedger } from "./ledger";
import type { AuthoriseAllResult } from "./order-payments";
import { applyStep } from "./steps";

/** A leg of a sale as planned before any money moves: its id and key derive from the sale's key. */
export interface PlannedLeg {
  index: number;
  legId: string;
  key: string;
  req: LegRequest;
  /** Its place among the order's legs (refunds go newest first), fixed by the open write. */
  seq?: number;
}

/** What the PSP said about one card leg between the phases, not yet written. */
interface CardAnswer {
  leg: PlannedLeg;
  answer: PspAuthorisation;
  declineCode: ErrorCode;
  /** Voided at the PSP after a later leg's decline, under this key. */
  voidKey?: string;
}

/** The authorisations between the open and commit phases: the result, and the card answers the commit write records. */
export interface SaleAuthorisation {
  result: AuthoriseAllResult;
  cards: CardAnswer[];
  /** Card legs planned and never sent (a leg before them was declined): their rows go. */
  unsent: string[];
}

/**
 * The sale's payment in atomic phases (issue 8 §1), for a saga that writes each phase with its
 * other effects: the card legs are planned (rows `authorising`, each with its key) in the
 * saga's open write; the PSP is called between phases under those keys, so a retry or the
 * reconciler after a crash finds the authorisation instead of making a second one; the answers
 * are written in the saga's commit write; captures are asked between the commit and the close
 * and written in the close. Legs on the airline's own instruments (voucher, settlement,
 * loyalty) need no PSP: they are reserved through the ledger, in order, as authoriseAll does.
 */
export class SalePayments {
  constructor(
    private readonly ledger: PaymentLedger,
    private readonly psp: PspSimulator,
  ) {}

  plan(legs: readonly LegRequest[], key: string): PlannedLeg[] {
    validateLegs(legs);
    return legs.map((req, index) => ({ index, req, key: `${key}/leg/${index}`, legId: idFromKey("PL", `${key}/leg/${index}`) }));
  }

  /**
   * In the open write: the card legs' rows, `authorising`, with their keys (a replanned run finds
   * its rows). `newOrder`: the caller knows the order has no leg yet (its first open write), so
   * its legs are numbered from 1 without reading the order's highest seq.
   */
  async writePlanned(tx: StoreDb, orderId: string, changeRef: string, planned: readonly PlannedLeg[], now: number, opts: { newOrder?: boolean } = {}): Promise<void> {
    const base = opts.newOrder ? 1 : await nextSeq(tx, orderId);
    for (const p of planned) {
      // Every leg's place is fixed now, in request order; the other instruments' legs take theirs when reserved.
      p.seq = base + p.index;
      if (p.req.kind !== "card") continue;
      await insertPlannedLeg(tx, {
        legId: p.legId, orderId, changeRef, seq: p.seq, kind: "card", state: "authorising", currency: p.req.amount.currency,
        requested: p.req.amount.amount, authorised: 0, captured: 0, refunded: 0, authoriseKey: p.key, pointsCaptured: 0, pointsRefunded: 0, createdAt: now,
      });
      await keepPayerAuthentication(tx, p.legId, p.req, now);
    }
  }

  /**
   * Between the phases: each leg in order. A card is asked at the PSP under its key (a timeout is
   * asked again by key at once; a PSP that never saw it authorised nothing). The first decline
   * voids every leg authorised before it (keys `<key>/void/<j>`), as authoriseAll does.
   */
  async authorise(orderId: string, changeRef: string, planned: readonly PlannedLeg[], key: string, now: number): Promise<SaleAuthorisation> {
    const cards: CardAnswer[] = [];
    const authorised: PaymentLeg[] = [];
    for (const p of planned) {
      let leg: PaymentLeg;
      let code: ErrorCode = "payment_declined";
      if (p.req.kind === "card") {
        const a = await this.askCard(p);
        cards.push(a);
        leg = cardLeg(orderId, changeRef, p, a, now);
        code = a.declineCode;
      } else {
        const out = await this.ledger.authorise(orderId, changeRef, p.req, p.key, p.seq);
        leg = out.leg;
        if (out.status === "declined") code = out.code;
      }
      if (leg.state === "authorised") {
        authorised.push(leg);
        continue;
      }
      const voided: PaymentLeg[] = [];
      for (const [j, a] of authorised.entries()) voided.push(await this.voidEarlier(a, `${key}/void/${j}`, cards, now));
      const unsent = planned.filter((q) => q.index > p.index && q.req.kind === "card").map((q) => q.legId);
      return { result: { status: "declined", declinedIndex: p.index, code, declined: leg, voided, unresolved: [] }, cards, unsent };
    }
    return { result: { status: "authorised", legs: authorised }, cards, unsent: [] };
  }

  /** In the commit write: every card answer on its leg row, with its ledger entries. */
  async record(tx: StoreDb, orderId: string, auth: SaleAuthorisation, now: number): Promise<void> {
    const byId = new Map((await orderLegs(tx, orderId)).map((l) => [l.legId, l]));
    for (const a of auth.cards) {
      const row = byId.get(a.leg.legId);
      if (!row || row.state !== "authorising") continue;
      const leg = cardLeg(row.orderId, row.changeRef, a.leg, a, now, row);
      await saveLeg(tx, leg);
      await appendEntry(tx, { orderId: leg.orderId, legId: leg.legId, ...authorisationEntry(a.answer, leg.requested), currency: leg.currency, idempotencyKey: a.leg.key, at: now });
      if (a.voidKey && leg.state === "authorised") await applyStep(tx, "void", leg, leg.authorised, a.voidKey, now, this.ledger.clearance);
    }
    for (const legId of auth.unsent) if (byId.get(legId)?.state === "authorising") await deleteLeg(tx, legId);
  }

  /** Between the commit and the close: the PSP captures each authorised card leg under `<key>/<legId>`. */
  capture(legs: readonly PaymentLeg[], key: string): Promise<void> {
    return this.atPsp("capture", legs, key);
  }

  /** In the close write: each leg still authorised captured in full (instrument, leg row, ledger entry). */
  recordCaptures(tx: StoreDb, orderId: string, legIds: readonly string[], key: string, now: number): Promise<void> {
    return this.recordSteps(tx, "capture", orderId, legIds, key, now);
  }

  /**
   * A void in the same two phases as a capture (staff voiding a reconcile_failed item's legs): the
   * PSP voids each authorised card leg under `<key>/<legId>` (asked again, it answers its first
   * void), then recordVoids writes them in the caller's one write.
   */
  voidAtPsp(legs: readonly PaymentLeg[], key: string): Promise<void> {
    return this.atPsp("void", legs, key);
  }

  /** In the caller's write: each leg still authorised voided (reservation released, leg row, ledger entry). */
  recordVoids(tx: StoreDb, orderId: string, legIds: readonly string[], key: string, now: number): Promise<void> {
    return this.recordSteps(tx, "void", orderId, legIds, key, now);
  }

  /** The PSP's half of a capture or a void: each authorised card leg under `<key>/<legId>`, so a repeat is answered, not made again. */
  private async atPsp(step: "capture" | "void", legs: readonly PaymentLeg[], key: string): Promise<void> {
    for (const leg of legs) {
      if (leg.kind !== "card" || leg.state !== "authorised") continue;
      const ask = { idempotencyKey: `${key}/${leg.legId}`, pspReference: leg.pspReference! };
      let out;
      try {
        out = step === "capture" ? await this.psp.capture({ ...ask, amount: leg.authorised }) : await this.psp.void(ask);
      } catch (e) {
        if (e instanceof PspTimeoutError) throw new GatewayError("psp_unavailable", { detail: `Leg ${leg.legId}, ${step}.` });
        throw e;
      }
      if (out.status === "refused") throw new GatewayError("payment_leg_state_invalid", { detail: `The PSP refused the ${step} of leg ${leg.legId}.` });
    }
  }

  /** The ledger's half, in the caller's write: each named leg still authorised captured or voided in full, under the PSP's keys. */
  private async recordSteps(tx: StoreDb, step: "capture" | "void", orderId: string, legIds: readonly string[], key: string, now: number): Promise<void> {
    for (const leg of await orderLegs(tx, orderId)) {
      if (legIds.includes(leg.legId) && leg.state === "authorised") await applyStep(tx, step, leg, leg.authorised, `${key}/${leg.legId}`, now, this.ledger.clearance);
    }
  }

  private async askCard(p: PlannedLeg): Promise<CardAnswer> {
    const card = p.req as Extract<LegRequest, { kind: "card" }>;
    try {
      const answer = await this.psp.authorise({ idempotencyKey: p.key, token: card.token, amount: card.amount, authentication: card.authentication });
      return { leg: p, answer, declineCode: "payment_declined" };
    } catch (e) {
      if (!(e instanceof PspTimeoutError)) throw e;
      const seen = (await this.psp.status(p.key)) as PspAuthorisation | undefined;
      return seen
        ? { leg: p, answer: seen, declineCode: "payment_declined" }
        : { leg: p, answer: { status: "declined", reason: "not_received", brand: "", lastFour: "" }, declineCode: "psp_unavailable" };
    }
  }

  /** A leg authorised before a decline: a card is voided at the PSP now (its row written at commit), an own instrument through the ledger. */
  private async voidEarlier(leg: PaymentLeg, key: string, cards: CardAnswer[], now: number): Promise<PaymentLeg> {
    if (leg.kind !== "card") return this.ledger.void(leg.legId, key);
    const out = await this.psp.void({ idempotencyKey: key, pspReference: leg.pspReference! });
    if (out.status === "refused") throw new GatewayError("payment_leg_state_invalid", { detail: `The PSP refused the void of leg ${leg.legId}.` });
    cards.find((c) => c.leg.legId === leg.legId)!.voidKey = key;
    return { ...leg, state: "voided", endedAt: now };
  }
}

function cardLeg(orderId: string, changeRef: string, p: PlannedLeg, a: CardAnswer, now: number, row?: PaymentLeg): PaymentLeg {
  const base: PaymentLeg = row ?? {
    legId: p.legId, orderId, changeRef, seq: p.seq ?? p.index + 1, kind: "card", state: "authorising", currency: p.req.amount.currency,
    requested: p.req.amount.amount, authorised: 0, captured: 0, refunded: 0, authoriseKey: p.key, pointsCaptured: 0, pointsRefunded: 0, createdAt: now,
  };
  const answer = a.answer;
  const after = afterEntry(base, authorisationEntry(answer, base.requested));
  if (answer.status === "authorised") return { ...base, ...after, cardBrand: answer.brand, cardLast4: answer.lastFour, pspReference: answer.pspReference };
  return {
    ...base,
    ...after,
    declineCode: a.declineCode,
    endedAt: now,
    ...(answer.brand ? { cardBrand: answer.brand, cardLast4: answer.lastFour } : {}),
    ...(isDeclineReason(answer.reason) ? { declineReason: answer.reason } : {}),
  };
}

