import { BASE_CURRENCY } from "../exchange/rates";
import { money, type Money } from "@ndc/money";

/**
 * Partner (marketplace) products (SHPAN3), of the categories in spec 4.8 rules 5 and 6. The
 * classified categories map to a taxonomy node; the others are sold with none, and so is any
 * category a partner adds before the airline classifies it ("wellness" here). Each product has
 * stock, is sold once per order and needs a contact email (spec 8), which the flag states so the
 * gateway checks it without knowing the rule.
 */
export type PartnerCategory =
  | "lounge"
  | "fastTrack"
  | "airportTransfer"
  | "trainTransfer"
  | "busTransfer"
  | "carRental"
  | "hotelVoucher"
  | "esim"
  | "travelInsurance"
  | "baggageProtection"
  | "carbonOffset"
  | "foodAndDrink"
  | "dutyFree"
  | "retail"
  | "airportParking"
  | "destinationExperience"
  | "voucher"
  | "service"
  | "travelService"
  | "wellness";

/** Category -> node; a category missing here is unclassified (sold with no node). */
export const PARTNER_CATEGORY_NODES: Partial<Record<PartnerCategory, string>> = {
  lounge: "1B58",
  fastTrack: "26AC",
  airportTransfer: "2CEC",
  trainTransfer: "2E7C",
  busTransfer: "2FA8",
  carRental: "2D50",
  hotelVoucher: "3138",
  esim: "319C",
  travelInsurance: "3200",
  baggageProtection: "3200",
  carbonOffset: "0E10",
};

export interface PartnerProduct {
  code: string;
  /** Proper name of the partner selling it; not translated. */
  partnerName: string;
  category: PartnerCategory;
  taxonomyCode: string | undefined;
  rfic: string;
  rfisc: string;
  nameKey: string;
  price: Money;
  /** Units the partner has released to the airline at start; the stock actor counts sales down from it. */
  initialStock: number;
  requiresContactEmail: boolean;
  maxPerOrder: 1;
  /** Where it can be used; undefined = any airport. */
  airports: readonly string[] | undefined;
}

const product = (p: {
  code: string;
  partnerName: string;
  category: PartnerCategory;
  rfic: string;
  rfisc: string;
  cents: number;
  stock: number;
  airports?: readonly string[];
}): PartnerProduct => ({
  code: p.code,
  partnerName: p.partnerName,
  category: p.category,
  taxonomyCode: PARTNER_CATEGORY_NODES[p.category],
  rfic: p.rfic,
  rfisc: p.rfisc,
  nameKey: `partner.${p.code}.name`,
  price: money(p.cents, BASE_CURRENCY),
  initialStock: p.stock,
  requiresContactEmail: true,
  maxPerOrder: 1,
  airports: p.airports,
});

export const PARTNER_PRODUCTS: readonly PartnerProduct[] = [
  product({ code: "PP-LOUNGE-LHR", partnerName: "Aurora Lounges", category: "lounge", rfic: "E", rfisc: "0BY", cents: 4_200, stock: 40, airports: ["LHR"] }),
  product({ code: "PP-FASTTRACK-CDG", partnerName: "SwiftLane", category: "fastTrack", rfic: "E", rfisc: "0LG", cents: 1_500, stock: 100, airports: ["CDG"] }),
  product({ code: "PP-TRANSFER-DXB", partnerName: "Oasis Transfers", category: "airportTransfer", rfic: "I", rfisc: "PTR", cents: 5_500, stock: 25, airports: ["DXB"] }),
  product({ code: "PP-TRAIN-FRA", partnerName: "RailLink Europe", category: "trainTransfer", rfic: "I", rfisc: "PTN", cents: 3_900, stock: 60, airports: ["FRA"] }),
  product({ code: "PP-BUS-MAD", partnerName: "Meseta Buses", category: "busTransfer", rfic: "I", rfisc: "PBS", cents: 900, stock: 80, airports: ["MAD"] }),
  product({ code: "PP-CAR-JFK", partnerName: "Liberty Car Rental", category: "carRental", rfic: "I", rfisc: "PCR", cents: 18_900, stock: 12, airports: ["JFK"] }),
  product({ code: "PP-HOTEL-SIN", partnerName: "Merlion Stays", category: "hotelVoucher", rfic: "I", rfisc: "PHT", cents: 14_000, stock: 3, airports: ["SIN"] }),
  product({ code: "PP-ESIM", partnerName: "Globetalk", category: "esim", rfic: "F", rfisc: "PSM", cents: 1_290, stock: 500 }),
  product({ code: "PP-INSURANCE", partnerName: "Harbour Assurance", category: "travelInsurance", rfic: "I", rfisc: "PIN", cents: 2_490, stock: 1_000 }),
  product({ code: "PP-BAGPROTECT", partnerName: "Harbour Assurance", category: "baggageProtection", rfic: "I", rfisc: "PBP", cents: 990, stock: 1_000 }),
  product({ code: "PP-CO2", partnerName: "Green Canopy", category: "carbonOffset", rfic: "I", rfisc: "PCO", cents: 600, stock: 10_000 }),
  product({ code: "PP-FOOD-FCO", partnerName: "Trattoria del Volo", category: "foodAndDrink", rfic: "F", rfisc: "PFD", cents: 1_800, stock: 30, airports: ["FCO"] }),
  product({ code: "PP-DUTYFREE", partnerName: "SkyShop", category: "dutyFree", rfic: "F", rfisc: "PDF", cents: 4_900, stock: 50 }),
  product({ code: "PP-RETAIL", partnerName: "Travel Essentials Co", category: "retail", rfic: "F", rfisc: "PRT", cents: 2_500, stock: 0 }),
  product({ code: "PP-PARKING-AMS", partnerName: "Polder Parking", category: "airportParking", rfic: "I", rfisc: "PPK", cents: 7_500, stock: 20, airports: ["AMS"] }),
  product({ code: "PP-TOUR-GRU", partnerName: "Paulista Tours", category: "destinationExperience", rfic: "I", rfisc: "PDX", cents: 6_000, stock: 15, airports: ["GRU"] }),
  product({ code: "PP-VOUCHER", partnerName: "Gift Aloft", category: "voucher", rfic: "I", rfisc: "PVC", cents: 5_000, stock: 200 }),
  product({ code: "PP-SERVICE", partnerName: "Concierge Plus", category: "service", rfic: "I", rfisc: "PSV", cents: 3_000, stock: 40 }),
  product({ code: "PP-TRAVELSERVICE", partnerName: "Visa Helpers", category: "travelService", rfic: "I", rfisc: "PTS", cents: 3_500, stock: 40 }),
  product({ code: "PP-SPA-DXB", partnerName: "Mirage Spa", category: "wellness", rfic: "I", rfisc: "PWL", cents: 8_000, stock: 10, airports: ["DXB"] }),
];

export function partnerProduct(code: string): PartnerProduct | undefined {
  return PARTNER_PRODUCTS.find((p) => p.code === code);
}

/** Products usable on a journey touching these airports. */
export function partnerProductsFor(airports: readonly string[]): PartnerProduct[] {
  return PARTNER_PRODUCTS.filter((p) => p.airports === undefined || p.airports.some((a) => airports.includes(a)));
}
