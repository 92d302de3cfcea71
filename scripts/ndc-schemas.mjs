// IATA's NDC 24.4 schemas: the package `npm run schemas` fetches (scripts/schemas.mjs), and where
// the tests and `seller certify` look for them. Plain JavaScript: it runs under Node (npm run
// schemas) as well as under Bun. IATA's licence forbids redistributing the XSDs, so the project
// never holds them: a checkout reads them from the workspace's ../shared or fetches IATA's package.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * IATA's published package. `page` is IATA's own download page for its Data Exchange Standards
 * (the XML & API schemas of every release, 24.4 among the archived ones). `url` is that page's
 * attachment for 24.4, named as the page names its packages ("25.2 Version XML & API
 * Standards.zip"); neither it nor the package's hash could be checked where this was written (that
 * machine reaches no IATA address), so `sha256` stays null until someone who downloaded the package
 * and checked it against the page fills it in. Until then `npm run schemas` refuses to install what
 * it downloaded unless NDC_SCHEMAS_SHA256 names that download's hash (docs/schemas.md).
 */
export const SCHEMA_PACKAGE = {
  release: "24.4",
  page: "https://standards.atlassian.net/wiki/spaces/AIDM/pages/574587157/IATA+Data+Exchanges+Messages+Standards+Download+page",
  url: "https://standards.atlassian.net/wiki/download/attachments/574587157/24.4%20Version%20XML%20%26%20API%20Standards.zip",
  /** @type {string | null} */
  sha256: null,
};

/** Where `npm run schemas` installs them, relative to the checkout's root (git-ignored). */
export const FETCHED_DIR = ".ndc-schemas/24.4";

/** A directory holds the 24.4 schemas when it has the common types every message imports. */
export const MARKER = "IATA_OffersAndOrdersCommonTypes.xsd";

/** Where to look, in order: NDC_SCHEMA_DIR, the workspace's ../shared/ndc-schemas/24.4, then FETCHED_DIR. */
export function schemaDirCandidates(root, env) {
  const out = [];
  if (env.NDC_SCHEMA_DIR) out.push(resolve(root, env.NDC_SCHEMA_DIR));
  out.push(resolve(root, "../shared/ndc-schemas/24.4"), resolve(root, FETCHED_DIR));
  return out;
}

/** The first candidate holding the schemas, or null. */
export function findSchemaDir(root, env) {
  return schemaDirCandidates(root, env).find((d) => existsSync(join(d, MARKER))) ?? null;
}

/** The one line said when no schemas are found: why, and how to get them. */
export function missingSchemasNote(root, env) {
  return `XSD checks skipped: IATA's NDC 24.4 schemas are in none of ${schemaDirCandidates(root, env).join(", ")}; run \`npm run schemas\` (or set NDC_SCHEMA_DIR) to check every message against them.`;
}
