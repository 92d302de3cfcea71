import { createSupply, type Supply } from "@ndc/supply";

export const START = "2026-11-21";
export const SEED = "test-seed";

export function supply(seed: string | number = SEED, startDate = START): Supply {
  return createSupply({ seed, startDate, designator: "XB", promotionsSlowDelayMs: 200 });
}
