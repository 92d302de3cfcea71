import type { CabinCode } from "../schedule/flights";
import type { PaxType } from "./pax";

/**
 * Fare brands. Names and benefits are airline content (translated under brand.<CODE>.*).
 * Conditions are not here: they come from the brand policy (brand-policy.ts), which can fail.
 */
export interface BaggageAllowance {
  kind: "Checked" | "CarryOn";
  pieces: number;
  kgPerPiece: number;
  /** Passenger types it is granted to. */
  paxTypes: readonly PaxType[];
}

export interface BrandBundle {
  /** Classified bags the brand includes, by RFISC (catalogue/services.ts): a criterion can filter on them. */
  bagRfiscs: readonly string[];
  /** Everything else included is text only (i18n keys); it cannot be filtered on. */
  textItemKeys: readonly string[];
}

export interface FareBrand {
  code: string;
  cabin: CabinCode;
  /** Display order, cheapest first. */
  rank: number;
  nameKey: string;
  benefitKeys: readonly string[];
  /** undefined: the catalogue holds no allowance for this brand, and the offer states nothing. */
  allowance: readonly BaggageAllowance[] | undefined;
  bundle: BrandBundle;
  /** Multiplier on the cabin fare, per mille. */
  priceFactorPerMille: number;
}

const ADT_CHD = ["ADT", "CHD"] as const;
const carryOn = (kg: number, pieces = 1): BaggageAllowance => ({ kind: "CarryOn", pieces, kgPerPiece: kg, paxTypes: ADT_CHD });
const checked = (pieces: number, kg: number): BaggageAllowance => ({ kind: "Checked", pieces, kgPerPiece: kg, paxTypes: ADT_CHD });
/** A lap infant gets one checked piece (pushchair, nappies) in every brand that states an allowance. */
const infantChecked: BaggageAllowance = { kind: "Checked", pieces: 1, kgPerPiece: 10, paxTypes: ["INF"] };

export const FARE_BRANDS: readonly FareBrand[] = [
  {
    code: "SAVER",
    cabin: "ECONOMY",
    rank: 1,
    nameKey: "brand.SAVER.name",
    benefitKeys: ["brand.SAVER.benefit.1"],
    allowance: undefined,
    bundle: { bagRfiscs: [], textItemKeys: [] },
    priceFactorPerMille: 920,
  },
  {
    code: "LIGHT",
    cabin: "ECONOMY",
    rank: 2,
    nameKey: "brand.LIGHT.name",
    benefitKeys: ["brand.LIGHT.benefit.1"],
    allowance: [carryOn(8), { kind: "Checked", pieces: 0, kgPerPiece: 0, paxTypes: ADT_CHD }, infantChecked],
    bundle: { bagRfiscs: [], textItemKeys: [] },
    priceFactorPerMille: 1_000,
  },
  {
    code: "CLASSIC",
    cabin: "ECONOMY",
    rank: 3,
    nameKey: "brand.CLASSIC.name",
    benefitKeys: ["brand.CLASSIC.benefit.1", "brand.CLASSIC.benefit.2"],
    allowance: [carryOn(8), checked(1, 23), infantChecked],
    bundle: { bagRfiscs: ["0CC"], textItemKeys: ["bundle.text.standardSeat"] },
    priceFactorPerMille: 1_250,
  },
  {
    code: "COMFORT",
    cabin: "ECONOMY",
    rank: 4,
    nameKey: "brand.COMFORT.name",
    benefitKeys: ["brand.COMFORT.benefit.1", "brand.COMFORT.benefit.2"],
    allowance: [carryOn(8), checked(1, 23), infantChecked],
    bundle: { bagRfiscs: ["0CC"], textItemKeys: ["bundle.text.standardSeat", "bundle.text.meal"] },
    priceFactorPerMille: 1_450,
  },
  {
    code: "FLEX",
    cabin: "ECONOMY",
    rank: 5,
    nameKey: "brand.FLEX.name",
    benefitKeys: ["brand.FLEX.benefit.1", "brand.FLEX.benefit.2", "brand.FLEX.benefit.3"],
    allowance: [carryOn(10), checked(2, 23), infantChecked],
    bundle: { bagRfiscs: ["0CC", "0CD"], textItemKeys: ["bundle.text.anySeat", "bundle.text.priority"] },
    priceFactorPerMille: 1_750,
  },
  {
    code: "BUSINESS",
    cabin: "BUSINESS",
    rank: 6,
    nameKey: "brand.BUSINESS.name",
    benefitKeys: ["brand.BUSINESS.benefit.1", "brand.BUSINESS.benefit.2", "brand.BUSINESS.benefit.3"],
    allowance: [carryOn(8, 2), checked(2, 32), infantChecked],
    bundle: { bagRfiscs: ["0CC", "0CD"], textItemKeys: ["bundle.text.lounge", "bundle.text.priority", "bundle.text.meal"] },
    priceFactorPerMille: 1_000,
  },
];

export function fareBrand(code: string): FareBrand | undefined {
  return FARE_BRANDS.find((b) => b.code === code);
}

export function brandsForCabin(cabin: CabinCode): FareBrand[] {
  return FARE_BRANDS.filter((b) => b.cabin === cabin);
}
