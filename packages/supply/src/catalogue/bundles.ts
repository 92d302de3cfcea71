import { BASE_CURRENCY } from "../exchange/rates";
import { money, type Money } from "@ndc/money";

/**
 * Bundled offers (SHPBND): several catalogue extras sold together for less than their sum.
 * Fixed components are always included; an option group lets the passenger choose exactly one
 * of its services (a meal, a bag size).
 */
export interface ServiceBundle {
  code: string;
  nameKey: string;
  descriptionKey: string;
  components: readonly { serviceCode: string; quantity: number }[];
  options: readonly { groupCode: string; nameKey: string; choices: readonly string[] }[];
  price: { short: Money; long: Money };
  pictureIds: readonly string[];
}

export const SERVICE_BUNDLES: readonly ServiceBundle[] = [
  {
    code: "BNDL-COMFORT",
    nameKey: "bundle.BNDL-COMFORT.name",
    descriptionKey: "bundle.BNDL-COMFORT.description",
    components: [
      { serviceCode: "BAG1", quantity: 1 },
      { serviceCode: "PRIO", quantity: 1 },
    ],
    options: [{ groupCode: "MEAL", nameKey: "bundle.option.MEAL", choices: ["MEAL", "MLVG"] }],
    price: { short: money(4_500, BASE_CURRENCY), long: money(9_000, BASE_CURRENCY) },
    pictureIds: ["PIC-BNDL-COMFORT"],
  },
  {
    code: "BNDL-WORK",
    nameKey: "bundle.BNDL-WORK.name",
    descriptionKey: "bundle.BNDL-WORK.description",
    components: [
      { serviceCode: "WIFI", quantity: 1 },
      { serviceCode: "FTRK", quantity: 1 },
      { serviceCode: "FLEX", quantity: 1 },
    ],
    options: [{ groupCode: "BAG", nameKey: "bundle.option.BAG", choices: ["BAG1", "BAGH"] }],
    price: { short: money(6_500, BASE_CURRENCY), long: money(12_900, BASE_CURRENCY) },
    pictureIds: [],
  },
];

export function serviceBundle(code: string): ServiceBundle | undefined {
  return SERVICE_BUNDLES.find((b) => b.code === code);
}
