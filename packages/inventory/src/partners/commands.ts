import type { Channel, Refusal } from "../types";
import type { PartnerHoldRecord } from "./state";

/** What a partner stock actor is asked; one unit per command, one per order. */
export type PartnerCommand =
  | { op: "hold" | "sell"; orderId: string; channel: Channel; expiresAt: number; holdId?: string }
  | { op: "confirm"; holdId: string }
  | { op: "release"; holdId: string }
  | { op: "expire" }
  | { op: "stock" };

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

export type PartnerReply =
  | { kind: "hold"; hold: PartnerHold }
  | { kind: "expired"; holdIds: string[] }
  | { kind: "stock"; stock: PartnerStock }
  | Refusal;
