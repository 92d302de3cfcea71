import { and, eq, sql } from "drizzle-orm";
import { tables, type StoreDb } from "@ndc/store";
import type { Agency } from "../types";
import { toAgency } from "../registry/agencies";
import type { ClientRow } from "../registry/clients";

export interface CallerRow {
  client: ClientRow;
  agency: Agency;
}

/**
 * The client and its agency in one indexed read. Called on every token request and every NDC
 * call, never cached: the CLI changes these rows from another process, and suspension, rotation
 * and deactivation must bite on the very next call (DESIGN 5).
 */
export async function loadCaller(db: StoreDb, clientId: string): Promise<CallerRow | undefined> {
  const rows = await prepared(db).caller.all({ id: clientId });
  const r = rows[0];
  return r ? { client: r.client, agency: toAgency(r.agency) } : undefined;
}

/** The active agencies an aggregator may sell as; read only for clients holding ndc:aggregator. */
export async function loadAggregatorAgencies(db: StoreDb, clientId: string): Promise<Agency[]> {
  const rows = await prepared(db).aggregators.all({ id: clientId });
  return rows.map((r) => toAgency(r.agency));
}

export async function loadApiKey(db: StoreDb, digest: string) {
  const rows = await prepared(db).apiKey.all({ digest });
  return rows[0];
}

/**
 * These reads run on every NDC call, so their SQL is built and prepared once per connection:
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
