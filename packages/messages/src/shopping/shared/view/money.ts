// Moved to @ndc/shopping (src/model/money.ts): what shopping answers is its own; this file hands it on to the encoders.
export type { Money } from "@ndc/shopping";
export { money, formatMoney } from "@ndc/shopping";
