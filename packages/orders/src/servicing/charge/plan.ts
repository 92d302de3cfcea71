import { GatewayError } from "@ndc/errors";
import { money, type CurrencyCode } from "@ndc/money";
import { chargeCommission, type CommissionAgreement, type LegRequest } from "@ndc/payments";
import { spendRetained } from "../../cancel/retained";
import type { OrdersContext } from "../../context";
import { checkLegsPayTotal } from "../../create/rules";
import type { OperationKind, OperationRow, RequestKey } from "../../operation/store";
import type { Order, PostSaleCharge } from "../../state";

/**
 * The charge a post-sale change records (an addition's, a flight change's: the twin halves of
 * their plans), decided before anything is taken: a value the order retained (RespendInd) pays
 * first, down to zero (cancel/retained.ts); the legs pay what is left, and no PaymentFunctions
 * are accepted for a change that takes nothing; the commission on the charge's own amount
 * (SHPOR1 rule 6: a flat or foreign-currency tiered agreement refuses the change).
 */
export function postSaleCharge(
  order: Order,
  c: { changeRef: string; at: number; amountMinor: number; orderItemIds: string[]; payment: readonly LegRequest[]; commissionAgreement?: CommissionAgreement | undefined },
): PostSaleCharge {
  const { spentMinor, dueMinor } = spendRetained(order, c.amountMinor);
  if (dueMinor > 0) checkLegsPayTotal(c.payment as LegRequest[], order.currency, dueMinor);
  else if (c.payment.length) {
    const why = c.amountMinor < 0 ? "The change is refunded to the legs that paid the order" : spentMinor ? "The change is paid by the value retained on the order" : "The change costs nothing";
    throw new GatewayError("payment_legs_invalid", { detail: `${why}; send no PaymentFunctions (or PaymentFunctions of 0.00).` });
  }
  const commission = c.commissionAgreement && c.amountMinor > 0 ? chargeCommission(c.commissionAgreement, money(c.amountMinor, order.currency as CurrencyCode)) : undefined;
  return {
    changeRef: c.changeRef, at: c.at, amountMinor: c.amountMinor, orderItemIds: c.orderItemIds, ...(spentMinor ? { retainedSpentMinor: spentMinor } : {}),
    ...(commission ? { commission: { amountMinor: commission.amount.amount, basisMinor: commission.basis.amount, rule: commission.rule } } : {}),
  };
}

/** A post-sale charge's operation row as its open write records it (phase `open`, running under this process's lock). */
export function chargeRow<P>(ctx: OrdersContext, o: { operationId: string; kind: OperationKind; request: RequestKey; fingerprint: string }, order: Order, plan: P, now: number): OperationRow<P> {
  const { operationId, kind, request, fingerprint } = o;
  return { operationId, kind, request, fingerprint, orderId: order.orderId, owner: order.owner, phase: "open", status: "running", plan, lockOwner: ctx.instanceId, createdAt: now, updatedAt: now };
}
