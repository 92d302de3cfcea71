/**
 * The SQL drizzle's sqlite-core builders (and the domain's raw `sql` templates) make, in the form
 * PostgreSQL takes (decision 0041: one query layer, translated). Each rule is one difference the
 * builders really emit; anything SQLite-only that cannot be translated to the same meaning is
 * refused here, loudly, rather than run with another meaning:
 *
 * 1. Placeholders: `?` becomes `$1`..`$n` in order (never inside a quoted literal, a quoted
 *    identifier or a comment). SQLite's other parameter forms (`?NNN`, `$name`, `:name`) are
 *    never emitted by drizzle and are refused.
 * 2. Upsert conflict targets: sqlite-core writes `on conflict ("t"."a", "t"."b")`; PostgreSQL takes
 *    only bare column names there: `on conflict ("a", "b")`.
 * 3. Result names: SQLite keeps an unquoted alias as written (`AS orderId` names the column
 *    orderId), PostgreSQL folds it to lower case (orderid), and a raw `db.all(sql...)` reads rows
 *    by name. An unquoted alias in mixed case is quoted as written (`AS "orderId"`); an alias all
 *    in one case is left alone (`AS bigint` in a CAST, `AS n`). A later reference to a quoted
 *    alias in another case (ORDER BY orderid) then fails on PostgreSQL, loudly.
 * 4. Refused: functions and statements PostgreSQL has no faithful twin for (`PRAGMA`, `json_each`,
 *    `ifnull`, `iif`, `glob`, `INSERT OR ...`), and the scalar `max(a, b)` / `min(a, b)`:
 *    greatest/least skip NULLs where SQLite's answer NULL, so they are not the same function.
 *
 * Everything else the builders emit is PostgreSQL already (checked by test/store/pg-store.test.ts
 * on a real server: `limit ? offset ?`, `returning`, `values (?, null)`, `excluded.`, `in (...)`).
 * Booleans and 64-bit integers are values, not SQL: the session converts them (pg-values.ts).
 */

export interface PgStatement {
  /** The statement with $n placeholders. */
  text: string;
  /** How many parameters it takes. */
  params: number;
}

/** SQLite-only words that would fail on PostgreSQL, or run with another meaning. */
const REFUSED = new Map<string, string>([
  ["pragma", "PRAGMA is SQLite's: give the statement a form per engine (store.dialect)"],
  ["json_each", "json_each is SQLite's (PostgreSQL: jsonb_array_elements_text): give the query a form per engine"],
  ["json_extract", "json_extract is SQLite's: give the query a form per engine"],
  ["ifnull", "ifnull is SQLite's: write coalesce, which both engines have"],
  ["iif", "iif is SQLite's: write CASE WHEN, which both engines have"],
  ["glob", "GLOB is SQLite's: give the query a form per engine"],
  ["group_concat", "group_concat is SQLite's: give the query a form per engine"],
]);

const cache = new Map<string, PgStatement>();
const CACHE_MAX = 2048;

/** The PostgreSQL form of one SQLite statement; the same text is translated once. */
export function toPostgres(sqlite: string): PgStatement {
  let hit = cache.get(sqlite);
  if (hit === undefined) {
    hit = translate(sqlite);
    // Statements are a fixed set of shapes (values are parameters): past the bound, start over.
    if (cache.size >= CACHE_MAX) cache.clear();
    cache.set(sqlite, hit);
  }
  return hit;
}

export class UntranslatableSql extends Error {
  constructor(reason: string, sql: string) {
    super(`SQLite-only SQL cannot run on PostgreSQL: ${reason} (decision 0041): ${sql.slice(0, 200)}`);
    this.name = "UntranslatableSql";
  }
}

const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;

export function translate(s: string): PgStatement {
  let out = "";
  let params = 0;
  let depth = 0;
  /** The paren depth of an upsert's conflict target while inside it, else -1. */
  let target = -1;
  /** The previous word outside quotes, lower-cased, when only whitespace separates it from here. */
  let prev = "";
  let i = 0;
  const n = s.length;
  while (i < n) {
    const c = s[i]!;
    if (c === "'") {
      const end = closing(s, i, "'");
      out += s.slice(i, end);
      i = end;
      prev = "";
    } else if (c === '"') {
      const end = closing(s, i, '"');
      // Inside a conflict target a qualifier ("t".) is dropped, the column name kept.
      if (target >= 0 && s[end] === ".") i = end + 1;
      else {
        out += s.slice(i, end);
        i = end;
      }
      prev = "";
    } else if (c === "-" && s[i + 1] === "-") {
      const nl = s.indexOf("\n", i);
      const end = nl < 0 ? n : nl + 1;
      out += s.slice(i, end);
      i = end;
    } else if (c === "/" && s[i + 1] === "*") {
      const close = s.indexOf("*/", i + 2);
      const end = close < 0 ? n : close + 2;
      out += s.slice(i, end);
      i = end;
    } else if (c === "?") {
      if (/[0-9]/.test(s[i + 1] ?? "")) throw new UntranslatableSql("numbered parameters (?NNN)", s);
      out += `$${++params}`;
      i++;
      prev = "";
    } else if (c === "$" || (c === ":" && /[A-Za-z_]/.test(s[i + 1] ?? "") && s[i - 1] !== ":")) {
      throw new UntranslatableSql("named parameters ($name, :name)", s);
    } else if (/[A-Za-z_]/.test(c)) {
      WORD.lastIndex = i;
      const word = WORD.exec(s)![0];
      const lower = word.toLowerCase();
      const refused = REFUSED.get(lower);
      if (refused) throw new UntranslatableSql(refused, s);
      if (prev === "insert" && lower === "or") throw new UntranslatableSql("INSERT OR IGNORE/REPLACE is SQLite's: write onConflictDoNothing/onConflictDoUpdate", s);
      if ((lower === "max" || lower === "min") && scalarCall(s, i + word.length)) {
        throw new UntranslatableSql(`the scalar ${lower}(a, b) answers NULL for a NULL argument on SQLite, ${lower === "max" ? "greatest" : "least"}() skips it: give the query a form per engine`, s);
      }
      out += prev === "as" && word !== lower && word !== word.toUpperCase() ? `"${word}"` : word;
      if (prev === "on" && lower === "conflict") prev = "on conflict";
      else prev = lower;
      i += word.length;
    } else if (c === "(") {
      depth++;
      if (prev === "on conflict") target = depth;
      out += c;
      i++;
      prev = "";
    } else if (c === ")") {
      if (depth === target) target = -1;
      depth--;
      out += c;
      i++;
      prev = "";
    } else {
      if (!/\s/.test(c)) prev = "";
      out += c;
      i++;
    }
  }
  return { text: out, params };
}

/** The index just past the quote closing the one at `start` (a doubled quote is an escaped one). */
function closing(s: string, start: number, q: string): number {
  let j = start + 1;
  for (;;) {
    const k = s.indexOf(q, j);
    if (k < 0) return s.length;
    if (s[k + 1] === q) j = k + 2;
    else return k + 1;
  }
}

/** Whether `name(` at `from` opens a call with two or more arguments (a comma at its own depth). */
function scalarCall(s: string, from: number): boolean {
  let i = from;
  while (i < s.length && /\s/.test(s[i]!)) i++;
  if (s[i] !== "(") return false;
  let depth = 0;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === "'" || c === '"') i = closing(s, i, c) - 1;
    else if (c === "(") depth++;
    else if (c === ")") {
      if (--depth === 0) return false;
    } else if (c === "," && depth === 1) return true;
  }
  return false;
}
