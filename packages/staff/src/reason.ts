import { GatewayError } from "@ndc/errors";

/**
 * Why a member of staff reads or erases personal data (spec 2.4 rule 5, spec 8): a category from
 * a closed list, and free text of at least 10 characters, so "x" or "check" is not a reason.
 */
export const REASON_CATEGORIES = ["passenger_request", "government_request", "fraud_investigation", "operational_need", "legal_obligation"] as const;
export type ReasonCategory = (typeof REASON_CATEGORIES)[number];
export const REASON_MIN = 10;
export const REASON_MAX = 500;

export interface StatedReason {
  reason: string;
  category?: ReasonCategory;
}

/**
 * The reason of a request, trimmed; `needsCategory` for a reveal; `field` the body's name for it
 * (a work item's resolution calls it `note`). Refusals name the field at fault.
 */
export function statedReason(body: Record<string, unknown>, needsCategory: boolean, field = "reason"): StatedReason {
  const given = body[field];
  const reason = typeof given === "string" ? given.trim() : "";
  const n = [...reason].length;
  if (n < REASON_MIN || n > REASON_MAX) throw new GatewayError("staff_reason_invalid", { detail: `The ${field} is free text of ${REASON_MIN} to ${REASON_MAX} characters.`, element: field });
  if (!needsCategory) return { reason };
  const category = body.category;
  if (typeof category !== "string" || !(REASON_CATEGORIES as readonly string[]).includes(category))
    throw new GatewayError("staff_reason_invalid", { detail: `The category is one of ${REASON_CATEGORIES.join(", ")}.`, element: "category" });
  return { reason, category: category as ReasonCategory };
}
