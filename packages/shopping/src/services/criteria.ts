import type { ServiceCriterion } from "../model";
import type { Criterion, ServiceCriteria } from "@ndc/supply";

/**
 * OfferCriteria/ServiceCriteria as the supply's matcher reads them. Within one ServiceCriteria
 * any named TaxonomyCode, RFIC or RFISC selects; IncludeInd false or PrefLevel Exclude turns
 * the element into an exclusion. An element naming nothing selects nothing and is ignored.
 */
export function supplyCriteria(criteria: readonly ServiceCriterion[]): ServiceCriteria {
  const include: Criterion[] = [];
  const exclude: Criterion[] = [];
  for (const c of criteria) {
    const named: Criterion[] = [
      ...c.taxonomyCodes.map((taxonomyCode) => ({ taxonomyCode })),
      ...(c.rfic ? [{ rfic: c.rfic }] : []),
      ...c.rfisc.map((rfisc) => ({ rfisc })),
    ];
    (c.include === false || c.preference === "Exclude" ? exclude : include).push(...named);
  }
  return { include, exclude };
}
