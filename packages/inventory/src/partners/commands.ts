import type { HoldableCommand, HoldableReply } from "../holdable/types";
import type { PartnerHoldRecord } from "./state";

/**
 * What a partner stock actor is asked: the holdable-stock commands for one unit of the product
 * per order, plus `stock`.
 */
export type PartnerCommand = HoldableCommand<{ orderId: string }, "stock">;

export interface PartnerHold extends PartnerHoldRecord {
  productCode: string;
}

export interface PartnerStock {
  productCode: string;
  stock: number;
  held: number;
  sold: number;
  /** stock - held - sold; never negative. */
  available: number;
}

export type PartnerReply = HoldableReply<PartnerHold, { kind: "stock"; stock: PartnerStock }>;
