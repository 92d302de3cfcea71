import type { ErrorCode } from "@ndc/errors";

/**
 * The sales channels that sell from the same inventory actors: NDC (OrderCreate) and the
 * airline's own web shop. Recorded on every claim so staff can see who sold a seat.
 */
export const CHANNELS = ["ndc", "web_shop"] as const;
export type Channel = (typeof CHANNELS)[number];

export function isChannel(value: unknown): value is Channel {
  return typeof value === "string" && (CHANNELS as readonly string[]).includes(value);
}

/**
 * held: taken until expiresAt, then expired unless confirmed; sold: final until released
 * (a cancellation); released and expired are ended and keep their record for the answer.
 */
export type ClaimStatus = "held" | "sold" | "released" | "expired";

export const isLive = (s: ClaimStatus) => s === "held" || s === "sold";

/**
 * A refusal decided together with effects that must still be written (a confirm that finds
 * its hold expired records the expiry, then refuses). Replies carry it; the service throws.
 */
export interface Refusal {
  kind: "refused";
  code: ErrorCode;
  detail: string;
}
