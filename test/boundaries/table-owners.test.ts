import { beforeAll, expect, test } from "bun:test";
import { definedTables, definedTwice, definingFiles, type DefinedTable } from "../support/drizzle-tables";

/**
 * Each domain package owns its tables and the statements about them; @ndc/store keeps only the
 * connection, the commit queue, the migration runner and shared helpers (decision 0011). A table
 * moved to its owner that comes back into packages/store, or a table defined in two places (two
 * drizzle views of one SQL table that can drift apart), fails here.
 */
const OWNERS: Record<string, string> = {
  agencies: "packages/auth",
  clients: "packages/auth",
  aggregator_grants: "packages/auth",
  api_keys: "packages/auth",
  token_signing_keys: "packages/auth",
  registry_version: "packages/auth",
  offers: "packages/shopping",
  commission_agreements: "packages/payments",
  identity_documents: "packages/pii",
  identity_document_erasures: "packages/pii",
  web_shop_accounts: "packages/orders",
};

let tables: DefinedTable[];
beforeAll(async () => {
  tables = await definedTables();
});

test("every table moved to its domain is defined by its owner, and not in packages/store", () => {
  const found = Object.fromEntries(Object.keys(OWNERS).map((name) => [name, tables.filter((t) => t.name === name).map((t) => t.workspace)]));
  expect(found).toEqual(Object.fromEntries(Object.entries(OWNERS).map(([name, owner]) => [name, [owner]])));
  expect(tables.filter((t) => t.workspace === "packages/store" && t.name in OWNERS).map((t) => t.file)).toEqual([]);
});

test("no table is defined twice, in two packages or in one", () => {
  expect(tables.length).toBeGreaterThan(10);
  expect(definedTwice(tables)).toEqual({});
});

test("every sqliteTable( call is an exported table this check sees", () => {
  const seen = new Map<string, number>();
  for (const t of tables) seen.set(t.file, (seen.get(t.file) ?? 0) + 1);
  expect(definingFiles().filter((f) => seen.get(f.file) !== f.calls)).toEqual([]);
});

test("the check itself: a table defined in two packages is reported with both files", () => {
  const twice = [
    { name: "offers", file: "packages/shopping/src/tables/offers.ts" },
    { name: "offers", file: "packages/store/src/tables/offers.ts" },
    { name: "clients", file: "packages/auth/src/tables/registry.ts" },
  ];
  expect(definedTwice(twice)).toEqual({ offers: ["packages/shopping/src/tables/offers.ts", "packages/store/src/tables/offers.ts"] });
});
