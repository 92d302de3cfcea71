import { GatewayError } from "@ndc/errors";

/**
 * Why a member of staff reads or erases personal data (spec 2.4 rule 5, spec 8): a category from
 * a closed list, and free text of at least 10 visible characters, so "x", "check" or twelve
 * zero-width spaces is not a reason.
 */
export const REASON_CATEGORIES = ["passenger_request", "government_request", "fraud_investigation", "operational_need", "legal_obligation"] as const;
export type ReasonCategory = (typeof REASON_CATEGORIES)[number];
export const REASON_MIN = 10;
export const REASON_MAX = 500;

/**
 * What a reader of the audit sees nothing of: controls and formats (zero-width spaces, joiners,
 * bidi marks), separators (spaces of every width, line and paragraph separators), unassigned and
 * default-ignorable code points (the Hangul fillers), the blank Braille pattern, and combining
 * marks (a mark on a letter adds nothing to what is read; marks alone show nothing).
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cn}\p{Cs}\p{Z}\p{M}\p{Default_Ignorable_Code_Point}\u2800]/gu;

/** The characters of `text` a reader can see: the one measure of a reason's length. */
export function visibleLength(text: string): number {
  return [...text.replace(INVISIBLE, "")].length;
}

/**
 * The one rule for a reason's text, for every path that takes one (console, staff API, CLI):
 * REASON_MIN visible characters at least, REASON_MAX characters in all (invisible ones count
 * there: they are stored). Returns the trimmed text, or null when it does not hold.
 */
export function reasonText(given: unknown): string | null {
  const reason = typeof given === "string" ? given.trim() : "";
  return visibleLength(reason) >= REASON_MIN && [...reason].length <= REASON_MAX ? reason : null;
}

export interface StatedReason {
  reason: string;
  category?: ReasonCategory;
}

/**
 * The reason of a request, trimmed; `needsCategory` for a reveal; `field` the body's name for it
 * (a work item's resolution calls it `note`). Refusals name the field at fault.
 */
export function statedReason(body: Record<string, unknown>, needsCategory: boolean, field = "reason"): StatedReason {
  const reason = reasonText(body[field]);
  if (reason === null) throw new GatewayError("staff_reason_invalid", { detail: `The ${field} is free text of ${REASON_MIN} to ${REASON_MAX} characters, at least ${REASON_MIN} of them visible.`, element: field });
  if (!needsCategory) return { reason };
  const category = body.category;
  if (typeof category !== "string" || !(REASON_CATEGORIES as readonly string[]).includes(category))
    throw new GatewayError("staff_reason_invalid", { detail: `The category is one of ${REASON_CATEGORIES.join(", ")}.`, element: "category" });
  return { reason, category: category as ReasonCategory };
}
