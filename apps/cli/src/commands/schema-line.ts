import type { Store } from "@ndc/store";

/** What `migrate` says of a store's schema: "N migration(s) applied; schema at V" or "nothing to apply; schema at V (N migration(s))". */
export async function schemaLine(store: Store, appliedCount: number): Promise<string> {
  const rows = (await store.db.all("SELECT version FROM schema_migrations ORDER BY version")) as Array<{ version: string }>;
  const latest = rows.at(-1)?.version ?? "none";
  return appliedCount ? `${appliedCount} migration(s) applied; schema at ${latest}` : `nothing to apply; schema at ${latest} (${rows.length} migration(s))`;
}
