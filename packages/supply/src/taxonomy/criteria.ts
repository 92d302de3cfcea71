import { isAtOrBelow } from "./tree";

/**
 * Service criteria (ServiceCriteria / OfferCriteria): select by taxonomy node, RFIC or RFISC.
 * A parent node selects everything below it. A product sold with no node is never returned to a
 * node, RFIC or RFISC criterion, even when it carries an RFIC (spec 4.8 rule 6); an exclusion
 * criterion does not remove it either, because it cannot be said to belong to what is excluded.
 */
export interface Classified {
  rfic?: string;
  rfisc?: string;
  /** undefined: sold with no taxonomy node. */
  taxonomyCode?: string;
}

export type Criterion = { taxonomyCode: string } | { rfic: string } | { rfisc: string };

export interface ServiceCriteria {
  /** Any one of these selects the product; none at all means "everything". */
  include?: readonly Criterion[];
  /** Any one of these removes the product. */
  exclude?: readonly Criterion[];
}

function matches(product: Classified, c: Criterion): boolean {
  if (product.taxonomyCode === undefined) return false;
  if ("taxonomyCode" in c) return isAtOrBelow(product.taxonomyCode, c.taxonomyCode);
  if ("rfic" in c) return product.rfic !== undefined && product.rfic.toUpperCase() === c.rfic.toUpperCase();
  return product.rfisc !== undefined && product.rfisc.toUpperCase() === c.rfisc.toUpperCase();
}

export function selectedBy(product: Classified, criteria: ServiceCriteria): boolean {
  const include = criteria.include ?? [];
  if (include.length > 0 && !include.some((c) => matches(product, c))) return false;
  return !(criteria.exclude ?? []).some((c) => matches(product, c));
}

export function filterByCriteria<T extends Classified>(products: readonly T[], criteria: ServiceCriteria): T[] {
  return products.filter((p) => selectedBy(p, criteria));
}
