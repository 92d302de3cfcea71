import type { ErrorCode } from "@ndc/errors";
import type { Money } from "./money";

/**
 * View-model pieces shared by the four shopping responses. A view model is what the domain
 * hands the encoder: already decided, already translated, already summed. The encoders only
 * place it in the 24.4 structure; they decide nothing.
 */

/** A tax line of a price (TaxSummary/Tax). */
export interface TaxView {
  /** Tax code, e.g. YQ, GB, FR. */
  code: string;
  amount: Money;
  /** Name as the tax authority calls it; English (gateway-composed). */
  name?: string;
}

/** A fee line (Fee), e.g. a service fee. Labels are composed by the gateway, so English. */
export interface FeeView {
  amount: Money;
  label: string;
  /** Short code, 1 to 15 characters (Fee/DesigText); longer codes are not rendered. */
  code?: string;
}

/**
 * A price adjustment from a promotion rule (SHPREV): a Discount lowers the price, a Surcharge
 * raises it. `amount` is positive in both cases.
 */
export interface AdjustmentView {
  /** The promotion rule's id, rendered as DiscountContext KeyText / Surcharge Fee DesigText (1-15 chars). */
  ruleId: string;
  /** Promotion name in the content language (airline content). */
  name: string;
  amount: Money;
  /** The rule's percentage, when it is one (12.5 = 12.5%). */
  percent?: number;
}

/**
 * A price (PriceType). `total` is given, never computed here: the domain owns arithmetic.
 * base + taxes + fees + surcharges - discounts = total is the domain's invariant, not the encoder's.
 */
export interface PriceView {
  base?: Money;
  taxes: TaxView[];
  fees?: FeeView[];
  discounts?: AdjustmentView[];
  surcharges?: AdjustmentView[];
  total: Money;
}

/** AirlineTaxonomy: the node's code and its codeset path as DescText (spec 2.7, 4.8.5). */
export interface TaxonomyView {
  code: string;
  /** The codeset path, e.g. "Ancillaries > Airport services > Lounge access". */
  path?: string;
}

/** A picture or other media resource with its caption (SHPRMD). */
export interface MediaView {
  mediaId: string;
  uri: string;
  /** MIME type, e.g. image/jpeg. */
  contentType?: string;
  /** Caption in the content language (airline content). */
  caption?: string;
}

/**
 * A Warning. A catalogue code takes its English text from the catalogue (plus `detail`);
 * any other code must bring its own English `text`.
 */
export type WarningView =
  | { code: ErrorCode; detail?: string; element?: string }
  | { code: string; text: string; element?: string };

/** Processing: the currency prices are in and the languages the content is in (spec 4.8 rule 1). */
export interface ProcessingView {
  currency?: { code: string; decimals: number };
  /** Content languages actually returned, e.g. ["de", "en"] when some text fell back to English. */
  contentLanguages: string[];
}

/** Fare conditions of a fare brand (SHPOR1): the four the spec names, optionally with fees. */
export interface FareConditionsView {
  changeable: boolean;
  refundable: boolean;
  cancellable: boolean;
  renameable: boolean;
  /** Per passenger, for a change or cancellation made now (Fee/Amount). */
  changeFee?: Money;
  cancelFee?: Money;
  /** The lowest and highest fee by time to departure (Fee/MinimumAmount, MaximumAmount), with either fee. */
  feeRange?: { min: Money; max: Money };
  /** What the fee depends on (Fee/DescText), composed English, with either fee. */
  feeText?: string;
}

/** A baggage allowance (BaggageAllowanceList). Checked or CarryOn; pieces and kg per piece. */
export interface BaggageAllowanceView {
  baggageAllowanceId: string;
  type: "Checked" | "CarryOn";
  pieces?: number;
  kgPerPiece?: number;
  rfisc?: string;
  taxonomy?: TaxonomyView;
}
