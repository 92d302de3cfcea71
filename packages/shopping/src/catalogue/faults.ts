import type { ServiceKind } from "@ndc/supply";

/** A catalogue read is per category: one per kind of extra, and one for bundles. */
export type CatalogueCategory = ServiceKind | "bundle";

export const CATALOGUE_CATEGORIES: readonly CatalogueCategory[] = [
  "bag", "meal", "wifi", "priority", "lounge", "fastTrack", "pet", "flexibility", "celebration", "bundle",
];

/**
 * How a category's read misbehaves: "fail" (a permanent error, e.g. a bad publish), "transient"
 * (an error worth retrying, e.g. a dropped connection) or "hang" (never answers; the timeout ends it).
 */
export type CatalogueFault = "fail" | "transient" | "hang";

/**
 * The fault switch of the catalogue reads, so tests and the sandbox can prove that shopping fails
 * open. One per supply instance (catalogueFaults(supply)), off unless set.
 */
export class CatalogueFaults {
  private readonly faults = new Map<CatalogueCategory, CatalogueFault>();

  set(category: CatalogueCategory, fault: CatalogueFault): void {
    this.faults.set(category, fault);
  }

  clear(category?: CatalogueCategory): void {
    if (category) this.faults.delete(category);
    else this.faults.clear();
  }

  get(category: CatalogueCategory): CatalogueFault | undefined {
    return this.faults.get(category);
  }

  get any(): boolean {
    return this.faults.size > 0;
  }
}

const bySupply = new WeakMap<object, CatalogueFaults>();

/** The fault switch for the catalogue of one supply instance. */
export function catalogueFaults(supply: object): CatalogueFaults {
  let f = bySupply.get(supply);
  if (!f) bySupply.set(supply, (f = new CatalogueFaults()));
  return f;
}
