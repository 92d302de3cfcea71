/**
 * The translation of sqlite-core's SQL for PostgreSQL (packages/store/src/pg-translate.ts,
 * decision 0041), rule by rule, on the very strings drizzle's builders make for gateway tables.
 * No server needed: test/store/pg-store.test.ts runs the translated statements on one.
 */
import { describe, expect, test } from "bun:test";
import { and, eq, gt, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import { tables } from "@ndc/store";
import { toPostgres, translate, UntranslatableSql } from "../../packages/store/src/pg-translate";

// A database that only builds SQL: .toSQL() never runs anything.
const db = drizzle(async () => ({ rows: [] }));
const J = tables.actorJournal;
const S = tables.actorSnapshots;
const O = tables.operations;

describe("placeholders", () => {
  test("every ? becomes $1..$n in order, and the count is told", () => {
    const q = db.select().from(J).where(and(eq(J.kind, "order"), eq(J.key, "K"), gt(J.seq, 3))).limit(5).offset(10).toSQL();
    const t = translate(q.sql);
    expect(t.params).toBe(q.params.length);
    expect(t.text).toContain(`where ("actor_journal"."kind" = $1 and "actor_journal"."key" = $2 and "actor_journal"."seq" > $3) limit $4 offset $5`);
    expect(t.text).not.toContain("?");
  });

  test("never inside a quoted literal, a quoted identifier or a comment", () => {
    expect(translate(`select 'what?', "odd?name", x from t -- why?\nwhere a = ? /* ? */ and b = 'it''s ?' and c = ?`)).toEqual({
      text: `select 'what?', "odd?name", x from t -- why?\nwhere a = $1 /* ? */ and b = 'it''s ?' and c = $2`,
      params: 2,
    });
  });

  test("SQLite's numbered and named parameters are refused, never guessed", () => {
    expect(() => translate("select ?1")).toThrow(UntranslatableSql);
    expect(() => translate("select $name")).toThrow(UntranslatableSql);
    expect(() => translate("select :name")).toThrow(UntranslatableSql);
    // A PostgreSQL cast is not a named parameter.
    expect(translate("select ?::jsonb").text).toBe("select $1::jsonb");
  });
});

describe("upsert conflict targets", () => {
  test("lose their table qualifiers; the update's set and where keep theirs", () => {
    const q = db
      .insert(S)
      .values({ kind: "order", key: "K", seq: 2, state: "{}", updatedAt: 1 })
      .onConflictDoUpdate({ target: [S.kind, S.key], set: { seq: 2 }, setWhere: sql`excluded.seq > ${S.seq}` })
      .toSQL();
    expect(q.sql).toContain(`on conflict ("actor_snapshots"."kind", "actor_snapshots"."key")`);
    const t = translate(q.sql).text;
    expect(t).toContain(`on conflict ("kind", "key") do update set "seq" = $6 where excluded.seq > "actor_snapshots"."seq"`);
  });

  test("a single target, do nothing, and a target with its index predicate", () => {
    expect(translate(db.insert(O).values({ operationId: "a" } as never).onConflictDoNothing({ target: O.operationId }).toSQL().sql).text).toMatch(/on conflict \("operation_id"\) do nothing$/);
    expect(translate(db.insert(J).values({ kind: "k", key: "k", seq: 1, payload: "{}", committedAt: 1 }).onConflictDoNothing().toSQL().sql).text).toMatch(/on conflict do nothing$/);
    expect(translate(`insert into "t" ("a") values (?) on conflict ("t"."a", "t"."b") where "t"."c" is not null do nothing`).text).toBe(
      `insert into "t" ("a") values ($1) on conflict ("a", "b") where "t"."c" is not null do nothing`,
    );
  });

  test("qualifiers elsewhere are kept (joins, subqueries)", () => {
    const s = `select "t"."a" from "t" where "t"."b" in (select "u"."b" from "u")`;
    expect(translate(s).text).toBe(s);
  });
});

describe("what PostgreSQL takes as it is", () => {
  test("null for a column left out, returning, excluded., in (...)", () => {
    const q = db.insert(J).values({ kind: "k", key: "k", seq: 1, payload: "{}", committedAt: 1 }).returning({ seq: J.seq }).toSQL();
    expect(translate(q.sql).text).toBe(`insert into "actor_journal" ("kind", "key", "seq", "payload", "committed_at") values ($1, $2, $3, $4, $5) returning "seq"`);
    const op = db.insert(O).values({ operationId: "a", kind: "order_create", fingerprint: "f", phase: "p", status: "running", createdAt: 1, updatedAt: 1 }).toSQL();
    expect(translate(op.sql).text).toContain("values ($1, $2, null, null, null, $3, null");
  });
});

describe("result names", () => {
  test("a mixed-case alias is quoted as written, so a raw read finds the name SQLite gives it", () => {
    expect(translate(`SELECT o.order_id AS orderId, count(*) AS n, CAST(x AS bigint) AS total, CAST(y AS BIGINT) AS "keptAs" FROM o`).text).toBe(
      `SELECT o.order_id AS "orderId", count(*) AS n, CAST(x AS bigint) AS total, CAST(y AS BIGINT) AS "keptAs" FROM o`,
    );
  });
});

describe("SQLite-only SQL fails loudly", () => {
  test.each([
    ["PRAGMA data_version", /PRAGMA/],
    ["SELECT k.value FROM orders, json_each(orders.flight_keys) k", /json_each/],
    ["SELECT ifnull(a, 0) FROM t", /coalesce/],
    ["SELECT iif(a, 1, 0) FROM t", /CASE WHEN/],
    ["INSERT OR IGNORE INTO t VALUES (?)", /onConflict/],
    ["SELECT max(a, b) FROM t", /greatest/],
    ["SELECT min(a, (b)) FROM t", /least/],
  ])("%s", (s, why) => {
    expect(() => translate(s)).toThrow(why);
  });

  test("aggregate max/min and words in quotes are not refused", () => {
    expect(translate(`SELECT max(seq), min("t"."a") FROM t WHERE note = 'pragma ifnull' AND "glob" = ?`).params).toBe(1);
  });
});

test("each text is translated once", () => {
  const s = `select "a" from "t" where "a" = ? -- cached`;
  expect(toPostgres(s)).toBe(toPostgres(s));
});
