import { and, eq, sql } from "drizzle-orm";
import type { StoreDb } from "@ndc/store";
import * as tables from "../tables";
import type { Agency } from "../types";
import { toAgency } from "../registry/agencies";
import type { ClientRow } from "../registry/clients";
import { scopeSet } from "../registry/scopes";

export interface CallerRow {
  readonly client: Readonly<ClientRow>;
  readonly agency: Readonly<Agency>;
  /** The client's scopes as stored, parsed once per read. */
  readonly granted: ReadonlySet<string>;
}

export type ApiKeyRow = typeof tables.apiKeys.$inferSelect;

/**
 * The client and its agency in one indexed read. The token endpoint calls it every time; NDC
 * calls reach it through CallerCache, which re-reads whenever the registry may have changed
 * (suspension, rotation and deactivation bite on the very next call: DESIGN 5). Frozen, because
 * the cache hands the same row to every call.
 */
export async function loadCaller(db: StoreDb, clientId: string): Promise<CallerRow | undefined> {
  const rows = await prepared(db).caller.all({ id: clientId });
  const r = rows[0];
  return r ? Object.freeze({ client: Object.freeze(r.client), agency: Object.freeze(toAgency(r.agency)), granted: scopeSet(r.client.scopes) }) : undefined;
}

/** The registry's change counter (migration 0013): moves with every change to a registry table. */
export async function readRegistryVersion(db: StoreDb): Promise<number> {
  const rows = await prepared(db).version.all();
  return rows[0]?.version ?? 0;
}

/** The active agencies an aggregator may sell as; read only for clients holding ndc:aggregator. */
export async function loadAggregatorAgencies(db: StoreDb, clientId: string): Promise<Agency[]> {
  const rows = await prepared(db).aggregators.all({ id: clientId });
  return Object.freeze(rows.map((r) => Object.freeze(toAgency(r.agency)))) as Agency[];
}

export async function loadApiKey(db: StoreDb, digest: string): Promise<ApiKeyRow | undefined> {
  const rows = await prepared(db).apiKey.all({ digest });
  return rows[0] ? Object.freeze(rows[0]) : undefined;
}

/**
 * These reads run on every token request and on NDC calls the cache cannot answer, so their
 * SQL is built and prepared once per connection:
 * building a drizzle query and preparing it each time cost more than the rest of the pipeline
 * (profile in docs/decisions/0003-auth-hot-path.md).
 */
function build(db: StoreDb) {
  return {
    caller: db
      .select({ client: tables.clients, agency: tables.agencies })
      .from(tables.clients)
      .innerJoin(tables.agencies, eq(tables.agencies.agencyId, tables.clients.agencyId))
      .where(eq(tables.clients.clientId, sql.placeholder("id")))
      .limit(1)
      .prepare(),
    aggregators: db
      .select({ agency: tables.agencies })
      .from(tables.aggregatorGrants)
      .innerJoin(tables.agencies, eq(tables.agencies.agencyId, tables.aggregatorGrants.agencyId))
      .where(and(eq(tables.aggregatorGrants.clientId, sql.placeholder("id")), eq(tables.agencies.active, true)))
      .prepare(),
    apiKey: db.select().from(tables.apiKeys).where(eq(tables.apiKeys.keyHash, sql.placeholder("digest"))).limit(1).prepare(),
    version: db.select({ version: tables.registryVersion.version }).from(tables.registryVersion).where(eq(tables.registryVersion.id, 1)).prepare(),
  };
}

const statements = new WeakMap<StoreDb, ReturnType<typeof build>>();

function prepared(db: StoreDb): ReturnType<typeof build> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = build(db)));
  return s;
}

/** Why a registered client may not act right now, or undefined when it may. */
export function refusal(caller: CallerRow, mode: string): string | undefined {
  if (caller.client.suspended) return "The client is suspended.";
  if (!caller.agency.active) return "The client's agency is not active with the airline.";
  if (caller.client.localOnly && mode !== "local") return "The sandbox client is accepted by a local gateway only.";
  return undefined;
}
