import { BASE_CURRENCY } from "../exchange/rates";
import { money, type Money } from "@ndc/money";
import { AIRPORTS } from "../network";
import type { CabinCode, Flight } from "../schedule/flights";
import type { PaxType } from "./pax";

/**
 * Taxes, fees and charges per flown segment, by the country of departure, in the base currency
 * (cents). Amounts are the sandbox's own, shaped like the real ones: a distance band, a cabin
 * rate for the UK duty, children and infants exempt where the real tax exempts them.
 */
interface TaxRule {
  code: string;
  short: number;
  long: number;
  /** Business-cabin amount when the tax is higher there (UK APD). */
  businessShort?: number;
  businessLong?: number;
  exempt: readonly PaxType[];
  /** Children are exempt in economy only (UK APD under 16). */
  childExemptInEconomy?: boolean;
}

const TAX_TABLE: Readonly<Record<string, readonly TaxRule[]>> = {
  GB: [
    { code: "GB", short: 1_500, long: 10_200, businessShort: 3_000, businessLong: 22_100, exempt: ["INF"], childExemptInEconomy: true },
    { code: "UB", short: 2_950, long: 2_950, exempt: ["INF"] },
  ],
  FR: [
    { code: "FR", short: 480, long: 480, exempt: [] },
    { code: "QX", short: 1_250, long: 1_250, exempt: ["INF"] },
    { code: "IZ", short: 740, long: 1_500, exempt: ["INF"] },
  ],
  DE: [
    { code: "RA", short: 1_561, long: 7_058, exempt: ["INF"] },
    { code: "DE", short: 1_000, long: 1_000, exempt: ["INF"] },
  ],
  ES: [
    { code: "JD", short: 1_060, long: 1_060, exempt: ["INF"] },
    { code: "QV", short: 110, long: 110, exempt: [] },
    { code: "OG", short: 90, long: 90, exempt: [] },
  ],
  IT: [
    { code: "HB", short: 1_050, long: 1_050, exempt: ["INF"] },
    { code: "IT", short: 850, long: 850, exempt: ["INF"] },
    { code: "MJ", short: 90, long: 90, exempt: [] },
  ],
  NL: [
    { code: "CJ", short: 1_160, long: 1_160, exempt: ["INF"] },
    { code: "RN", short: 1_475, long: 1_475, exempt: ["INF"] },
  ],
  US: [
    { code: "US", short: 2_370, long: 2_370, exempt: [] },
    { code: "XA", short: 390, long: 390, exempt: [] },
    { code: "XY", short: 700, long: 700, exempt: [] },
    { code: "YC", short: 660, long: 660, exempt: [] },
    { code: "AY", short: 560, long: 560, exempt: ["INF"] },
  ],
  AE: [
    { code: "AE", short: 1_750, long: 1_750, exempt: ["INF"] },
    { code: "F6", short: 930, long: 930, exempt: ["INF"] },
    { code: "ZR", short: 120, long: 120, exempt: [] },
  ],
  SG: [
    { code: "SG", short: 3_790, long: 3_790, exempt: ["INF"] },
    { code: "L7", short: 930, long: 930, exempt: ["INF"] },
    { code: "OP", short: 220, long: 220, exempt: [] },
  ],
  BR: [{ code: "BR", short: 3_000, long: 3_000, exempt: ["INF"] }],
};

/** The carrier-imposed surcharge (YQ) per segment; lap infants pay none. */
const CARRIER_SURCHARGE = { short: 1_500, long: 6_500 } as const;

export interface TaxLine {
  code: string;
  amount: Money;
}

export function segmentTaxes(flight: Flight, cabin: CabinCode, paxType: PaxType): TaxLine[] {
  const country = AIRPORTS.find((a) => a.code === flight.origin)?.country;
  const rules = country ? (TAX_TABLE[country] ?? []) : [];
  const long = flight.aircraft.wideBody;
  const lines: TaxLine[] = [];
  for (const r of rules) {
    if (r.exempt.includes(paxType)) continue;
    if (r.childExemptInEconomy && paxType === "CHD" && cabin === "ECONOMY") continue;
    const business = cabin === "BUSINESS";
    const amount = long ? (business ? (r.businessLong ?? r.long) : r.long) : business ? (r.businessShort ?? r.short) : r.short;
    lines.push({ code: r.code, amount: money(amount, BASE_CURRENCY) });
  }
  if (paxType !== "INF") lines.push({ code: "YQ", amount: money(long ? CARRIER_SURCHARGE.long : CARRIER_SURCHARGE.short, BASE_CURRENCY) });
  return lines;
}

/** A journey's taxes with the same code merged (one line per code, in first-seen order). */
export function journeyTaxes(segments: readonly Flight[], cabin: CabinCode, paxType: PaxType): TaxLine[] {
  const merged = new Map<string, number>();
  for (const s of segments) {
    for (const line of segmentTaxes(s, cabin, paxType)) merged.set(line.code, (merged.get(line.code) ?? 0) + line.amount.amount);
  }
  return [...merged].map(([code, amount]) => ({ code, amount: money(amount, BASE_CURRENCY) }));
}
