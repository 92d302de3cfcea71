import type { StoreDb } from "./open";

/**
 * A query built and prepared once per connection instead of on every call (issue 8: drizzle's
 * query building was a fifth of an OrderCreate's CPU). `build` makes the drizzle prepared query
 * with `sql.placeholder(...)` for every value; the result is kept per database object, which is
 * one object per connection for the embedded drivers (a libSQL server hands each transaction a
 * new one: there it is built per transaction, still correct).
 */
export function preparedPer<Q>(build: (db: StoreDb) => Q): (db: StoreDb) => Q {
  const cache = new WeakMap<StoreDb, Q>();
  return (db) => {
    let q = cache.get(db);
    if (!q) {
      q = build(db);
      cache.set(db, q);
    }
    return q;
  };
}
