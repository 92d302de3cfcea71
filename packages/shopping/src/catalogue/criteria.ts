import { CATALOGUE_SERVICES, catalogueService, selectedBy, type CatalogueService, type Criterion, type FareBrand, type ServiceCriteria } from "@ndc/supply";
import type { ServiceCriterion } from "../model";

/**
 * OfferCriteria/ServiceCriteria as the supply's matcher reads them. Every code a criterion names
 * (its RFIC, each RFISC, each TaxonomyCode) is an alternative: any one selects (or, with
 * IncludeInd false or PrefLevel Exclude, removes) a product.
 */
export function toCriteria(criteria: readonly ServiceCriterion[]): ServiceCriteria {
  const include: Criterion[] = [];
  const exclude: Criterion[] = [];
  for (const c of criteria) {
    const into = !c.include || c.preference === "Exclude" ? exclude : include;
    if (c.rfic) into.push({ rfic: c.rfic });
    for (const r of c.rfisc) into.push({ rfisc: r });
    for (const t of c.taxonomyCodes) into.push({ taxonomyCode: t });
  }
  return { include, exclude };
}

/** Catalogue services standing for what brands bundle as text only (spec 4.7: not filtered). */
const TEXT_ITEM_SERVICES: Readonly<Record<string, readonly string[]>> = {
  "bundle.text.priority": ["PRIO"],
  "bundle.text.lounge": ["LNGE"],
  "bundle.text.meal": ["MEAL", "MLVG"],
};

const CODE_BY_RFISC = new Map(CATALOGUE_SERVICES.map((s) => [s.rfisc, s.code]));

const excludes = (s: CatalogueService, criteria: ServiceCriteria) => !selectedBy(s, { exclude: criteria.exclude ?? [] });

/**
 * True when an exclusion names a classified bag the brand includes: such offers are removed
 * (spec 4.7). Bags are matched like catalogue products, so RFISC 0CC, RFIC C or the checked
 * baggage node all name the brand's first bag.
 */
export function brandExcluded(brand: FareBrand, criteria: ServiceCriteria): boolean {
  if (!criteria.exclude?.length) return false;
  return brand.bundle.bagRfiscs.some((rfisc) => {
    const bag = catalogueService(CODE_BY_RFISC.get(rfisc) ?? "");
    return bag !== undefined && excludes(bag, criteria);
  });
}

/** Whether an exclusion names something a brand bundles only as text: that is not filtered, and a Warning says so. */
export function textBundleNamed(brands: readonly FareBrand[], criteria: ServiceCriteria): string[] {
  if (!criteria.exclude?.length) return [];
  const named = new Set<string>();
  for (const b of brands) {
    for (const key of b.bundle.textItemKeys) {
      for (const code of TEXT_ITEM_SERVICES[key] ?? []) {
        const s = catalogueService(code);
        if (s && excludes(s, criteria)) named.add(`${b.code}: ${s.code}`);
      }
    }
  }
  return [...named].sort();
}

