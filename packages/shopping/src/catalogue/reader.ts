import { CATALOGUE_SERVICES, SERVICE_BUNDLES, type CatalogueService, type ServiceBundle } from "@ndc/supply";
import { CATALOGUE_CATEGORIES, type CatalogueCategory, type CatalogueFaults } from "./faults";

export interface MissingCategory {
  category: CatalogueCategory;
  reason: "failed" | "timed out";
  transient: boolean;
}

export interface CatalogueRead {
  services: CatalogueService[];
  bundles: ServiceBundle[];
  missing: MissingCategory[];
}

class ReadFailed extends Error {
  constructor(readonly transient: boolean) {
    super("catalogue read failed");
  }
}

/** One category's read. The catalogue is in memory; the faults stand in for a remote store misbehaving. */
function readCategory(category: CatalogueCategory, faults: CatalogueFaults): Promise<readonly (CatalogueService | ServiceBundle)[]> {
  switch (faults.get(category)) {
    case "fail":
      return Promise.reject(new ReadFailed(false));
    case "transient":
      return Promise.reject(new ReadFailed(true));
    case "hang":
      return new Promise(() => {});
    default:
      return Promise.resolve(category === "bundle" ? SERVICE_BUNDLES : CATALOGUE_SERVICES.filter((s) => s.kind === category));
  }
}

const TIMED_OUT = Symbol("timed out");

/**
 * Reads the catalogue category by category, in parallel. Each read gets its own timeout, cut
 * short by the deadline all reads share; a read that fails or is late is left out and reported,
 * never waited for beyond that (spec 4.7: failure is open).
 */
export async function readCatalogue(faults: CatalogueFaults, limits: { readTimeoutMs: number; deadlineMs: number }): Promise<CatalogueRead> {
  const out: CatalogueRead = { services: [], bundles: [], missing: [] };
  if (!faults.any) {
    // Nothing switched: the in-memory catalogue answers at once, so skip the timers (the shopping hot path).
    out.services = [...CATALOGUE_SERVICES];
    out.bundles = [...SERVICE_BUNDLES];
    return out;
  }
  const deadline = Date.now() + limits.deadlineMs;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const results = await Promise.all(
    CATALOGUE_CATEGORIES.map(async (category) => {
      const budget = Math.max(0, Math.min(limits.readTimeoutMs, deadline - Date.now()));
      const late = new Promise<typeof TIMED_OUT>((resolve) => timers.push(setTimeout(() => resolve(TIMED_OUT), budget)));
      try {
        const r = await Promise.race([readCategory(category, faults), late]);
        return { category, r };
      } catch (e) {
        return { category, r: e instanceof ReadFailed ? e : new ReadFailed(true) };
      }
    }),
  );
  for (const t of timers) clearTimeout(t);
  const read = new Set<CatalogueCategory>();
  for (const { category, r } of results) {
    if (r === TIMED_OUT) out.missing.push({ category, reason: "timed out", transient: true });
    else if (r instanceof ReadFailed) out.missing.push({ category, reason: "failed", transient: r.transient });
    else read.add(category);
  }
  // Catalogue order, whatever order the reads came back in, so answers stay deterministic.
  out.services = CATALOGUE_SERVICES.filter((s) => read.has(s.kind));
  out.bundles = read.has("bundle") ? [...SERVICE_BUNDLES] : [];
  return out;
}

/** English detail for services_not_listed: what was not listed and whether it was transient. */
export function missingDetail(missing: readonly MissingCategory[]): string {
  return `Not listed: ${missing.map((m) => `${m.category} (${m.reason}, ${m.transient ? "transient" : "not transient"})`).join("; ")}.`;
}
