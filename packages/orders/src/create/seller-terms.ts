import { GatewayError } from "@ndc/errors";
import { commissionAgreementFor, type LegRequest } from "@ndc/payments";
import type { OrdersContext } from "../context";
import type { OrderCreateInput } from "./input";

/** The selling agency as its registration knows it: its agency id and, when it has one, its IATA number. */
export interface SellingAgency {
  agencyId: string;
  iataNumber?: string;
}

/**
 * The seller's own terms of an OrderCreate, settled before the request's idempotent section (a
 * refusal here is not stored, so the same ids with a corrected body are a new try):
 * - a settlement plan pays through the seller's own account (spec 4.4 rule 6). The request names
 *   the agency by IATA number or agency id (IATA_Number, else the Seller link); accounts are kept
 *   by agency id, so the name is resolved to the seller here, and any other agency is refused;
 * - the agency's commission agreement as registered now: the order freezes the commission it
 *   gives, so a later change of agreement never rewrites an order already sold (spec 4.4 rule 7,
 *   PAYCOM). None registered: no commission.
 */
export async function withSellerTerms(ctx: OrdersContext, input: OrderCreateInput, agency: SellingAgency): Promise<OrderCreateInput> {
  const payment = input.payment?.map((leg, i) => sellerSettlement(leg, agency, i));
  const commissionAgreement = await commissionAgreementFor(ctx.store, agency.agencyId);
  return { ...input, ...(payment ? { payment } : {}), ...(commissionAgreement ? { commissionAgreement } : {}) };
}

export function sellerSettlement(leg: LegRequest, agency: SellingAgency, index: number): LegRequest {
  if (leg.kind !== "settlement") return leg;
  if (leg.agencyId === agency.agencyId || leg.agencyId === agency.iataNumber) return { ...leg, agencyId: agency.agencyId };
  throw new GatewayError("seller_not_authorised", {
    detail: "A settlement plan pays through the selling agency's own account only.",
    element: `Request/PaymentFunctions[${index + 1}]/PaymentProcessingDetails/PaymentMethod/SettlementPlan/IATA_Number`,
  });
}
