import type { StoreDb } from "./open";

/**
 * Statements built and prepared once per connection, for hot paths: building a drizzle query
 * and preparing it on every call cost a quarter of an OrderRetrieve (docs/decisions/0009).
 * `build` receives the connection and returns drizzle prepared queries (`.prepare()`, values
 * bound with `sql.placeholder`); the result is kept for as long as the connection lives.
 */
export function preparedOnce<T>(build: (db: StoreDb) => T): (db: StoreDb) => T {
  const byDb = new WeakMap<StoreDb, T>();
  return (db) => {
    let s = byDb.get(db);
    if (s === undefined) byDb.set(db, (s = build(db)));
    return s;
  };
}
