import { GatewayError } from "@ndc/errors";
import { AIRPORTS, BASE_CURRENCY, partyBreach, type CabinCode, type PaxCounts, type PaxType } from "@ndc/supply";
import { isCurrencyCode, type CurrencyCode } from "@ndc/money";
import type { CabinPreference, ResponsePreferences, ShoppingPax } from "../model";
import type { StoredPax } from "../offers/payload";

const CURRENCY_ELEMENT = "Request/ResponseParameters/CurParameter/CurCode";

/** The requested currency, or the airline's base currency when none was asked for. */
export function resolveCurrency(prefs: ResponsePreferences): CurrencyCode {
  const code = prefs.currency;
  if (code === undefined) return BASE_CURRENCY;
  if (!isCurrencyCode(code)) throw new GatewayError("currency_not_supported", { detail: `${code} is not in the airline's rate table.`, element: CURRENCY_ELEMENT });
  return code;
}

/** LangUsage codes in order, else PrimaryLangID (spec 4.8 rule 1); the Localiser picks from them. */
export function requestedLanguages(prefs: ResponsePreferences): string[] {
  if (prefs.langUsage.length > 0) return prefs.langUsage;
  return prefs.language ? [prefs.language] : [];
}

const PRICED: readonly string[] = ["ADT", "CHD", "INF"];

/**
 * Passengers as the airline prices them. No PaxList (the schema allows it) means one adult,
 * so a bare shop still answers. Types the airline does not price, a party with no fare-paying
 * passenger, more than 9 seated passengers or more lap infants than adults cannot be served.
 */
export function party(passengers: readonly ShoppingPax[]): { pax: StoredPax[]; counts: PaxCounts } {
  const pax: StoredPax[] = passengers.length ? passengers.map((p) => ({ paxId: p.paxId, ptc: p.ptc })) : [{ paxId: "PAX1", ptc: "ADT" }];
  const counts: PaxCounts = {};
  for (const p of pax) {
    if (!PRICED.includes(p.ptc)) {
      throw new GatewayError("shopping_criteria_invalid", { detail: `Passenger type ${p.ptc} is not priced; use ADT, CHD or INF.`, element: "Request/PaxList/Pax/PTC" });
    }
    counts[p.ptc as PaxType] = (counts[p.ptc as PaxType] ?? 0) + 1;
  }
  if ((counts.ADT ?? 0) + (counts.CHD ?? 0) === 0) {
    throw new GatewayError("shopping_criteria_invalid", { detail: "At least one adult or child is needed.", element: "Request/PaxList/Pax" });
  }
  // At most 9 seated, infants no more than adults (@ndc/supply partyBreach, the one rule).
  const breach = partyBreach(pax.map((p) => p.ptc));
  if (breach) throw new GatewayError("shopping_criteria_invalid", { detail: breach.detail, element: `Request/PaxList/Pax[${breach.index + 1}]` });
  return { pax, counts };
}

/** Passenger ids by type, in the order sent. */
export function paxIdsByType(pax: readonly StoredPax[]): Map<PaxType, string[]> {
  const map = new Map<PaxType, string[]>();
  for (const t of ["ADT", "CHD", "INF"] as const) {
    const ids = pax.filter((p) => p.ptc === t).map((p) => p.paxId);
    if (ids.length) map.set(t, ids);
  }
  return map;
}

/** CabinTypeCode as sellers send it (PADIS 9800 letters or the numeric NDC codes) to the airline's cabins. */
const CABIN_CODES: Readonly<Record<string, CabinCode | "OTHER">> = {
  C: "BUSINESS", J: "BUSINESS", "2": "BUSINESS",
  M: "ECONOMY", Y: "ECONOMY", "5": "ECONOMY", W: "OTHER", "4": "OTHER", F: "OTHER", "1": "OTHER", "3": "OTHER",
};

/** The cabin codes written on responses. */
export const CABIN_WIRE_CODE: Readonly<Record<CabinCode, string>> = { BUSINESS: "C", ECONOMY: "M" };

/** Cabins to shop: Required/Preferred codes, minus Excluded ones; none stated means every cabin. */
export function cabinsWanted(prefs: readonly CabinPreference[], element: string): CabinCode[] {
  const all: CabinCode[] = ["ECONOMY", "BUSINESS"];
  const map = (code: string): CabinCode | "OTHER" => {
    const c = CABIN_CODES[code.toUpperCase()];
    if (!c) throw new GatewayError("shopping_criteria_invalid", { detail: `Unknown CabinTypeCode ${code.slice(0, 8)}.`, element });
    return c;
  };
  const wanted = prefs.filter((p) => p.preference !== "Exclude").map((p) => map(p.code));
  const excluded = prefs.filter((p) => p.preference === "Exclude").map((p) => map(p.code));
  // Cabins the airline does not have (first, premium economy) match nothing: the answer is empty, not an error.
  const base = wanted.length ? all.filter((c) => wanted.includes(c)) : all;
  return base.filter((c) => !excluded.includes(c));
}

export function requireStation(code: string, element: string): void {
  if (!AIRPORTS.some((a) => a.code === code)) {
    throw new GatewayError("shopping_criteria_invalid", { detail: `The airline does not serve ${code}.`, element });
  }
}
