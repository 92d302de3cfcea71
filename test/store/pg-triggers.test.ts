/**
 * The triggers do on PostgreSQL what they do on SQLite (issue 23, decision 0041), each scenario
 * run on both engines with the same assertions: SQLite through the store, PostgreSQL through
 * Bun.SQL directly (both migrated by the one runner from their own folders).
 * - the five append-only tables refuse UPDATE and DELETE with "<table> is append-only"
 *   (SQLite: SQLITE_CONSTRAINT_TRIGGER; PostgreSQL: SQLSTATE 23000), and TRUNCATE on PostgreSQL;
 * - each of the 18 registry triggers moves registry_version by one per row written;
 * - each of the 8 order-view triggers drops the cached views of the order(s) written, no others;
 * - an INTEGER PRIMARY KEY given NULL takes the next number (SQLite's rowid; a trigger on PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { migrate, openStore, storeErrorCode, type Store } from "@ndc/store";
import { pgMissing, startCluster, storeAt, type Cluster } from "./pg-schema-support";

const missing = pgMissing("pg-triggers");
if (missing) console.log(missing);

/** What a scenario needs from an engine. */
interface Engine {
  name: "sqlite" | "postgres";
  exec(text: string): Promise<void>;
  rows(text: string): Promise<Record<string, unknown>[]>;
  /** The refusal of a statement: its message and code (SQLite result code or SQLSTATE), or null if it ran. */
  refusal(text: string): Promise<{ message: string; code: string | undefined } | null>;
}

function sqliteEngine(store: Store): Engine {
  return {
    name: "sqlite",
    exec: (text) => store.write((_tx, raw) => raw.exec(text)),
    rows: async (text) => (await store.db.all(sql.raw(text))) as Record<string, unknown>[],
    refusal: (text) =>
      store.write((_tx, raw) => raw.exec(text)).then(
        () => null,
        (e: Error) => ({ message: e.message, code: storeErrorCode(e) }),
      ),
  };
}

function pgEngine(pg: InstanceType<typeof Bun.SQL>): Engine {
  const numbers = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v]));
  return {
    name: "postgres",
    exec: async (text) => void (await pg.begin((tx) => tx.unsafe(text))),
    rows: async (text) => ((await pg.unsafe(text)) as Record<string, unknown>[]).map(numbers),
    refusal: (text) =>
      pg.begin((tx) => tx.unsafe(text)).then(
        () => null,
        (e: Error & { errno?: string }) => ({ message: e.message, code: e.errno }),
      ),
  };
}

const APPEND_ONLY: Record<string, string> = {
  payment_ledger_entries: "(seq, order_id, leg_id, type, amount, currency, idempotency_key, at, prev_hash, hash) VALUES (1, 'O1', 'L1', 'authorise', 100, 'EUR', 'k1', 1, '0', 'h1')",
  servicing_overrides: "(seq, at, staff_id, channel, order_id, operation_id, rule_code, rule_text, prev_hash, hash) VALUES (NULL, 1, 'S1', 'console', 'O1', 'op1', 'fare_not_changeable', 'x', '0', 'h1')",
  signature_evidence:
    "(seq, order_id, message, form, agency_id, client_id, fingerprint, signature_method, canonicalization, reference_uri, original_sha256, verified_at, prev_hash, hash) VALUES (NULL, 'O1', 'OrderCreateRQ', 'enveloped', 'A1', 'C1', 'f', 'rsa-sha256', 'c14n', '', 'sha', 1, '0', 'h1')",
  staff_audit: "(seq, at, staff_id, username, role, remote, action, outcome, prev_hash, hash) VALUES (NULL, 1, 'S1', 'ann', 'agent', '127.0.0.1', 'login', 'ok', '0', 'h1')",
  identity_document_erasures: "(seq, order_id, path, actor, documents, erased_at) VALUES (NULL, 'O1', 'retention', 'scheduler', 1, 1)",
};

/** A second row: its hash (unique on the trails) made different. */
const second = (values: string) => values.replace("(1, 'O1'", "(NULL, 'O1'").replace("'h1'", "'h2'").replace("'op1'", "'op2'");

async function appendOnly(e: Engine) {
  for (const [table, values] of Object.entries(APPEND_ONLY)) {
    await e.exec(`INSERT INTO ${table} ${values}; INSERT INTO ${table} ${second(values)}`);
    // SQLite's rowid, PostgreSQL's <table>_rowid trigger: a NULL seq is the next number.
    expect(await e.rows(`SELECT seq FROM ${table} ORDER BY seq`)).toEqual([{ seq: 1 }, { seq: 2 }]);
    const before = await e.rows(`SELECT * FROM ${table} ORDER BY seq`);
    const refused = { message: `${table} is append-only`, code: e.name === "sqlite" ? "SQLITE_CONSTRAINT_TRIGGER" : "23000" };
    for (const statement of [`UPDATE ${table} SET order_id = 'O2' WHERE seq = 1`, `DELETE FROM ${table} WHERE seq = 2`, `DELETE FROM ${table}`]) {
      const r = await e.refusal(statement);
      expect({ statement, code: r?.code, message: r?.message.includes(refused.message) }).toEqual({ statement, code: refused.code, message: true });
    }
    if (e.name === "postgres") expect((await e.refusal(`TRUNCATE ${table}`))?.code).toBe("23000");
    expect(await e.rows(`SELECT * FROM ${table} ORDER BY seq`)).toEqual(before);
  }
}

/** Every registry table: an insert, an update and a delete, in an order the foreign keys allow. */
const REGISTRY_WRITES: [string, string][] = [
  ["agencies insert", "INSERT INTO agencies (agency_id, iata_number, name, created_at) VALUES ('A1', '12345675', 'Agency', 1)"],
  ["clients insert", "INSERT INTO clients (client_id, secret_hash, agency_id, created_at, updated_at) VALUES ('C1', 'h', 'A1', 1, 1)"],
  ["aggregator_grants insert", "INSERT INTO aggregator_grants (client_id, agency_id, created_at) VALUES ('C1', 'A1', 1)"],
  ["api_keys insert", "INSERT INTO api_keys (key_id, key_hash, client_id, created_at) VALUES ('K1', 'kh', 'C1', 1)"],
  ["agency_signing_keys insert", "INSERT INTO agency_signing_keys (agency_id, fingerprint, kind, algorithm, pem, added_at) VALUES ('A1', 'fp', 'public_key', 'rsa-sha256', 'pem', 1)"],
  ["token_signing_keys insert", "INSERT INTO token_signing_keys (key_id, secret, created_at) VALUES ('T1', 's', 1)"],
  ["agencies update", "UPDATE agencies SET name = 'Renamed' WHERE agency_id = 'A1'"],
  ["clients update", "UPDATE clients SET suspended = 1 WHERE client_id = 'C1'"],
  ["aggregator_grants update", "UPDATE aggregator_grants SET created_at = 2"],
  ["api_keys update", "UPDATE api_keys SET revoked = 1"],
  ["agency_signing_keys update", "UPDATE agency_signing_keys SET revoked_at = 2"],
  ["token_signing_keys update", "UPDATE token_signing_keys SET secret = 't'"],
  ["token_signing_keys delete", "DELETE FROM token_signing_keys"],
  ["agency_signing_keys delete", "DELETE FROM agency_signing_keys"],
  ["api_keys delete", "DELETE FROM api_keys"],
  ["aggregator_grants delete", "DELETE FROM aggregator_grants"],
  ["clients delete", "DELETE FROM clients"],
  ["agencies delete", "DELETE FROM agencies"],
];

async function registryVersion(e: Engine) {
  const version = async () => (await e.rows("SELECT version FROM registry_version WHERE id = 1"))[0]!.version as number;
  expect(await version()).toBe(1);
  const moves: Record<string, number> = {};
  for (const [what, statement] of REGISTRY_WRITES) {
    const before = await version();
    await e.exec(statement);
    moves[what] = (await version()) - before;
  }
  expect(moves).toEqual(Object.fromEntries(REGISTRY_WRITES.map(([what]) => [what, 1])));
  // Row by row, as SQLite's triggers: two rows in one statement move it by two; a statement touching none leaves it.
  await e.exec("INSERT INTO token_signing_keys (key_id, secret, created_at) VALUES ('T2', 's', 1), ('T3', 's', 1)");
  expect(await version()).toBe(1 + REGISTRY_WRITES.length + 2);
  await e.exec("UPDATE token_signing_keys SET secret = 'u' WHERE key_id = 'none'");
  expect(await version()).toBe(1 + REGISTRY_WRITES.length + 2);
}

const ORDER = (id: string) =>
  `INSERT INTO orders (order_id, owner_client_id, owner_agency_id, state, version, created_at, updated_at, currency, total_minor, pax_count) VALUES ('${id}', 'C1', 'A1', 'booked', 1, 1, 1, 'EUR', 100, 1)`;
const VIEW = (id: string) => `INSERT INTO order_views (order_id, owner_agency_id, response, meta, valid_from) VALUES ('${id}', 'A1', '<r/>', '{}', 1)`;

/** Each write the 8 staleness triggers watch, and the orders whose views it must drop. */
const VIEW_WRITES: [string, string, string[]][] = [
  ["leg insert", "INSERT INTO payment_legs (leg_id, order_id, change_ref, seq, kind, state, currency, requested, authorise_key, created_at) VALUES ('L1', 'O1', 'sale', 1, 'card', 'authorised', 'EUR', 100, 'ak1', 1)", ["O1"]],
  ["leg update", "UPDATE payment_legs SET state = 'captured' WHERE leg_id = 'L1'", ["O1"]],
  ["leg update moving orders", "UPDATE payment_legs SET order_id = 'O2' WHERE leg_id = 'L1'", ["O1", "O2"]],
  ["leg delete", "DELETE FROM payment_legs WHERE leg_id = 'L1'", ["O2"]],
  ["document insert", "INSERT INTO identity_documents (document_id, order_id, pax_id, type_code, holder_surname, number_ciphertext, number_nonce, key_version, created_at) VALUES ('D1', 'O1', 'P1', 'P', 'DOE', 'c', 'n', 1, 1)", ["O1"]],
  ["document update", "UPDATE identity_documents SET holder_surname = 'ROE' WHERE document_id = 'D1'", ["O1"]],
  ["document update moving orders", "UPDATE identity_documents SET order_id = 'O2' WHERE document_id = 'D1'", ["O1", "O2"]],
  ["document delete", "DELETE FROM identity_documents WHERE document_id = 'D1'", ["O2"]],
  ["order update", "UPDATE orders SET version = 2 WHERE order_id = 'O1'", ["O1"]],
  ["order delete", "DELETE FROM orders WHERE order_id = 'O1'", ["O1"]],
];

async function orderViews(e: Engine) {
  await e.exec([ORDER("O1"), ORDER("O2"), ORDER("O3")].join("; "));
  const dropped: Record<string, string[]> = {};
  for (const [what, statement] of VIEW_WRITES) {
    await e.exec("DELETE FROM order_views");
    await e.exec(["O1", "O2", "O3"].map(VIEW).join("; "));
    await e.exec(statement);
    const left = (await e.rows("SELECT order_id FROM order_views ORDER BY order_id")).map((r) => r.order_id as string);
    dropped[what] = ["O1", "O2", "O3"].filter((id) => !left.includes(id));
  }
  expect(dropped).toEqual(Object.fromEntries(VIEW_WRITES.map(([what, , ids]) => [what, ids])));
}

describe.skipIf(!!missing)("triggers, the same on both engines", () => {
  let cluster: Cluster;
  const engines: { engine: Engine; close: () => Promise<void> }[] = [];

  beforeAll(async () => {
    cluster = await startCluster();
  }, 60_000);
  // 60 s: stopping the cluster (its shutdown checkpoint) took 9.5 s on this shared 2-core machine under load.
  afterAll(async () => {
    for (const e of engines) await e.close();
    cluster?.stop();
  }, 60_000);

  /** A freshly migrated database of each engine. */
  async function fresh(name: string): Promise<Engine[]> {
    const lite = await openStore("file::memory:");
    await migrate(lite);
    const pg = await storeAt(await cluster.database(name));
    await migrate(pg.store);
    const pair = [sqliteEngine(lite), pgEngine(pg.pg)];
    engines.push({ engine: pair[0]!, close: () => lite.close() }, { engine: pair[1]!, close: () => pg.close() });
    return pair;
  }

  test("the append-only tables refuse UPDATE, DELETE (and TRUNCATE on PostgreSQL); a NULL seq takes the next number", async () => {
    for (const e of await fresh("append_only")) await appendOnly(e);
  }, 60_000);

  test("every registry write moves registry_version, row by row", async () => {
    for (const e of await fresh("registry")) await registryVersion(e);
  }, 60_000);

  test("a write to an order, a payment leg or an identity document drops that order's stored views, no other", async () => {
    for (const e of await fresh("views")) await orderViews(e);
  }, 60_000);
});
