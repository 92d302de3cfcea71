// Moved to @ndc/shopping (src/model/common.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { TaxView, FeeView, AdjustmentView, PriceView, TaxonomyView, MediaView, WarningView, ProcessingView, FareConditionsView, BaggageAllowanceView } from "@ndc/shopping";
