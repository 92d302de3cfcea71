import { BASE_CURRENCY } from "../exchange/rates";
import { money, type Money } from "@ndc/money";

/**
 * The airline's own catalogue extras (SHPAN2). Each has its RFIC (reason for issuance code), RFISC
 * (sub code) and taxonomy node; two have none: the pet shipped as cargo and an on-board product
 * with no registered type (spec 4.8 rule 6), so node/RFIC/RFISC criteria never return them.
 * Prices are in the base currency; "segment" extras are sold per flight, "journey" ones once per
 * direction.
 */
export type ServiceKind = "bag" | "meal" | "wifi" | "priority" | "lounge" | "fastTrack" | "pet" | "flexibility" | "celebration";

export interface CatalogueService {
  code: string;
  kind: ServiceKind;
  rfic: string;
  rfisc: string;
  taxonomyCode: string | undefined;
  nameKey: string;
  descriptionKey: string;
  per: "segment" | "journey";
  /** Short-haul and long-haul price per passenger. */
  price: { short: Money; long: Money };
  /** Per passenger and flight or direction. */
  maxQuantity: number;
  /** Lap infants cannot buy it (no seat, no own bag beyond their allowance). */
  infantsAllowed: boolean;
  pictureIds: readonly string[];
}

const eur = (cents: number): Money => money(cents, BASE_CURRENCY);
const svc = (s: Omit<CatalogueService, "nameKey" | "descriptionKey">): CatalogueService => ({
  ...s,
  nameKey: `service.${s.code}.name`,
  descriptionKey: `service.${s.code}.description`,
});

export const CATALOGUE_SERVICES: readonly CatalogueService[] = [
  svc({ code: "BAG1", kind: "bag", rfic: "C", rfisc: "0CC", taxonomyCode: "0110", per: "journey", price: { short: eur(3_000), long: eur(6_000) }, maxQuantity: 1, infantsAllowed: false, pictureIds: [] }),
  svc({ code: "BAG2", kind: "bag", rfic: "C", rfisc: "0CD", taxonomyCode: "0110", per: "journey", price: { short: eur(4_500), long: eur(9_000) }, maxQuantity: 1, infantsAllowed: false, pictureIds: [] }),
  svc({ code: "BAGH", kind: "bag", rfic: "C", rfisc: "0CE", taxonomyCode: "0110", per: "journey", price: { short: eur(5_500), long: eur(11_000) }, maxQuantity: 2, infantsAllowed: false, pictureIds: [] }),
  svc({ code: "CBAG", kind: "bag", rfic: "C", rfisc: "0GO", taxonomyCode: "0120", per: "journey", price: { short: eur(1_800), long: eur(2_500) }, maxQuantity: 1, infantsAllowed: false, pictureIds: [] }),
  svc({ code: "MEAL", kind: "meal", rfic: "G", rfisc: "0B3", taxonomyCode: "0210", per: "segment", price: { short: eur(1_200), long: eur(2_400) }, maxQuantity: 1, infantsAllowed: false, pictureIds: ["PIC-MEAL"] }),
  svc({ code: "MLVG", kind: "meal", rfic: "G", rfisc: "0B5", taxonomyCode: "0210", per: "segment", price: { short: eur(1_200), long: eur(2_400) }, maxQuantity: 1, infantsAllowed: false, pictureIds: ["PIC-MLVG"] }),
  svc({ code: "WIFI", kind: "wifi", rfic: "G", rfisc: "0CL", taxonomyCode: "0220", per: "segment", price: { short: eur(600), long: eur(1_900) }, maxQuantity: 1, infantsAllowed: false, pictureIds: ["PIC-WIFI"] }),
  svc({ code: "PRIO", kind: "priority", rfic: "E", rfisc: "0G6", taxonomyCode: "0310", per: "journey", price: { short: eur(900), long: eur(1_500) }, maxQuantity: 1, infantsAllowed: false, pictureIds: [] }),
  svc({ code: "LNGE", kind: "lounge", rfic: "E", rfisc: "0BX", taxonomyCode: "1B58", per: "segment", price: { short: eur(3_900), long: eur(5_900) }, maxQuantity: 1, infantsAllowed: true, pictureIds: ["PIC-LNGE"] }),
  svc({ code: "FTRK", kind: "fastTrack", rfic: "E", rfisc: "0LF", taxonomyCode: "26AC", per: "segment", price: { short: eur(1_200), long: eur(1_200) }, maxQuantity: 1, infantsAllowed: true, pictureIds: [] }),
  svc({ code: "PETC", kind: "pet", rfic: "C", rfisc: "0BT", taxonomyCode: "0130", per: "segment", price: { short: eur(5_000), long: eur(10_000) }, maxQuantity: 1, infantsAllowed: false, pictureIds: ["PIC-PETC"] }),
  svc({ code: "PETH", kind: "pet", rfic: "C", rfisc: "0BS", taxonomyCode: undefined, per: "segment", price: { short: eur(12_000), long: eur(25_000) }, maxQuantity: 1, infantsAllowed: false, pictureIds: [] }),
  svc({ code: "FLEX", kind: "flexibility", rfic: "D", rfisc: "0FX", taxonomyCode: "0610", per: "journey", price: { short: eur(2_500), long: eur(6_000) }, maxQuantity: 1, infantsAllowed: false, pictureIds: [] }),
  svc({ code: "CELB", kind: "celebration", rfic: "G", rfisc: "0UN", taxonomyCode: undefined, per: "segment", price: { short: eur(3_500), long: eur(3_500) }, maxQuantity: 1, infantsAllowed: false, pictureIds: [] }),
];

export function catalogueService(code: string): CatalogueService | undefined {
  return CATALOGUE_SERVICES.find((s) => s.code === code);
}

export function serviceByRfisc(rfisc: string): CatalogueService | undefined {
  return CATALOGUE_SERVICES.find((s) => s.rfisc === rfisc.toUpperCase());
}
