import { GatewayError, type ErrorCode } from "@ndc/errors";
import type { Clock } from "@ndc/clock";
import type { Store } from "@ndc/store";
import { validateLegs } from "../legs/validate";
import type { LegRequest, PaymentLeg } from "../legs/types";
import { PspSimulator } from "../psp/simulator";
import { KeyedLock } from "@ndc/actors";
import { fingerprint } from "./idempotency";
import { keyed } from "./keyed";
import { orderLegs } from "./leg-rows";
import { PaymentLedger } from "./ledger";
import { SalePayments } from "./phased";
import { RefundPayments } from "./phased-refund";
import type { ClearanceDesk } from "../clearance/types";

export type AuthoriseAllResult =
  | { status: "authorised"; legs: PaymentLeg[] }
  | {
      status: "declined";
      /** Index in the request of the leg that was declined (or timed out). */
      declinedIndex: number;
      code: ErrorCode;
      declined: PaymentLeg;
      /** Every leg authorised before the decline, now voided, each under its own key. */
      voided: PaymentLeg[];
      /** A timed-out leg the PSP could not be asked about yet: the reconciler's. */
      unresolved: string[];
    };

/** The ledger's order-level operations (spec 4.4 rule 4, section 3 refunds). */
export class OrderPayments {
  readonly ledger: PaymentLedger;
  /**
   * One payment lock per order (reentrant): an order-level operation and the ledger's leg steps
   * inside it take the same lock, so two operations on one order's legs never interleave their
   * reads and writes (the ledger rows are not an actor's state; decision 0006).
   */
  private readonly orderLock = new KeyedLock();

  constructor(
    readonly store: Store,
    readonly clock: Clock,
    readonly psp: PspSimulator = new PspSimulator(store),
    /** Settlement legs' clearances, requested and cancelled in the ledger's own steps (the gateway wires it). */
    clearance?: ClearanceDesk,
  ) {
    this.ledger = new PaymentLedger(store, psp, clock, this.orderLock, clearance);
    this.sale = new SalePayments(this.ledger, psp);
    this.release = new RefundPayments(psp, clearance);
  }

  /**
   * Every refund, in its saga's phases (PSP between phases, recorded in the close write): a
   * cancellation's, an items cancellation's, a cheaper flight change's, a retained value's lapse.
   */
  readonly release: RefundPayments;

  /** The sale's payment in the OrderCreate saga's phases (planned, asked between phases, recorded with them). */
  readonly sale: SalePayments;

  /**
   * Authorises up to four legs together. On the first decline every leg already authorised is
   * voided (keys `<key>/void/<i>`) and the decline reported. A leg whose PSP answer was lost is
   * asked about by key at once and voided if it was authorised after all.
   */
  async authoriseAll(orderId: string, changeRef: string, legs: readonly LegRequest[], key: string): Promise<AuthoriseAllResult> {
    validateLegs(legs);
    const op = { name: "authoriseAll", key, fingerprint: fingerprint({ orderId, changeRef, legs }) };
    return this.orderLock.run(orderId, () =>
      keyed(this.store, this.clock, op, async () => null, async (): Promise<AuthoriseAllResult> => {
        const authorised: PaymentLeg[] = [];
        for (let i = 0; i < legs.length; i++) {
          let out = await this.ledger.authorise(orderId, changeRef, legs[i]!, `${key}/leg/${i}`);
          if (out.status === "authorised") {
            authorised.push(out.leg);
            continue;
          }
          const code: ErrorCode = out.status === "unknown" ? "psp_unavailable" : out.code;
          const unresolved: string[] = [];
          if (out.status === "unknown") {
            out = await this.ledger.resolveUnknown(out.leg.legId);
            if (out.status === "authorised") authorised.push(out.leg);
            else if (out.status === "unknown") unresolved.push(out.leg.legId);
          }
          const voided: PaymentLeg[] = [];
          for (const [j, leg] of authorised.entries()) voided.push(await this.ledger.void(leg.legId, `${key}/void/${j}`));
          return { status: "declined", declinedIndex: i, code, declined: out.leg, voided, unresolved };
        }
        return { status: "authorised", legs: authorised };
      }),
    );
  }

  /**
   * Captures the authorised legs of a change (all of the order's without `changeRef`, or exactly
   * `legIds`). Capturing a change whose legs were all voided is a late capture and refused; one
   * whose legs are already captured is a second capture and refused.
   */
  captureAll(orderId: string, key: string, opts: { changeRef?: string; legIds?: string[] } = {}): Promise<PaymentLeg[]> {
    const op = { name: "captureAll", key, fingerprint: fingerprint({ orderId, ...opts }) };
    return this.orderLock.run(orderId, () =>
      keyed(
        this.store,
        this.clock,
        op,
        async (tx) => {
          const targets = (await orderLegs(tx, orderId)).filter(
            (l) => (opts.changeRef === undefined || l.changeRef === opts.changeRef) && (!opts.legIds || opts.legIds.includes(l.legId)) && l.state !== "declined",
          );
          const open = targets.filter((l) => l.state === "authorised");
          if (open.length === 0) {
            if (targets.some((l) => l.state === "captured" || l.state === "refunded")) throw new GatewayError("payment_already_captured", { detail: `Order ${orderId}.` });
            if (targets.some((l) => l.state === "voided")) throw new GatewayError("payment_leg_voided", { detail: `Order ${orderId}.` });
            throw new GatewayError("payment_leg_state_invalid", { detail: `Order ${orderId} has no authorised leg to capture.` });
          }
          return open.map((l) => l.legId);
        },
        async (legIds) => {
          const out: PaymentLeg[] = [];
          for (const legId of legIds) out.push(await this.ledger.capture(legId, `${key}/${legId}`));
          return out;
        },
      ),
    );
  }

  /** Voids every authorised leg (of one change, or of the order), after asking the PSP about any unknown. */
  async voidAll(orderId: string, key: string, opts: { changeRef?: string } = {}): Promise<PaymentLeg[]> {
    const op = { name: "voidAll", key, fingerprint: fingerprint({ orderId, ...opts }) };
    const mine = (l: PaymentLeg) => opts.changeRef === undefined || l.changeRef === opts.changeRef;
    return this.orderLock.run(orderId, async () => {
      for (const l of await this.ledger.legs(orderId)) if (mine(l) && l.state === "authorising") await this.ledger.resolveUnknown(l.legId);
      return keyed(
        this.store,
        this.clock,
        op,
        async (tx) => (await orderLegs(tx, orderId)).filter((l) => mine(l) && l.state === "authorised").map((l) => l.legId),
        async (legIds) => {
          const out: PaymentLeg[] = [];
          for (const legId of legIds) out.push(await this.ledger.void(legId, `${key}/${legId}`));
          return out;
        },
      );
    });
  }

  /** The reconciler's step for one leg: learn an unknown outcome, then capture or void it. */
  async reconcileLeg(legId: string, action: "capture" | "void", key: string): Promise<PaymentLeg> {
    const out = await this.ledger.resolveUnknown(legId);
    if (out.status !== "authorised" || out.leg.state !== "authorised") return out.leg;
    return action === "capture" ? this.ledger.capture(legId, key) : this.ledger.void(legId, key);
  }
}

/** The wire error for a declined authoriseAll. */
export function declineError(result: Extract<AuthoriseAllResult, { status: "declined" }>): GatewayError {
  return new GatewayError(result.code, { detail: `Payment leg ${result.declinedIndex + 1} was not authorised; ${result.voided.length} authorised leg(s) voided.` });
}
