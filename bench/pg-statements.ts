/**
 * Counts what the PostgreSQL store sends while a window is open: every `unsafe()` call of every
 * Bun.SQL pool and reserved connection of this process is one round trip to the server (the
 * store's only way to send SQL: packages/store/src/drivers/postgres.ts, pg-session.ts), classified
 * by its first word. The write transaction's opening round trip (BEGIN; SET LOCAL lock_timeout;
 * the advisory write lock) is one round trip holding three statements. What bench/order-create.ts
 * reports as statements and round trips per booking on PostgreSQL, as
 * test/support/count-statements.ts counts bun:sqlite's.
 *
 * `countPgStatements()` replaces Bun.SQL: call it before the gateway opens its store.
 */
export interface PgCount {
  roundTrips: number;
  /**
   * Of which on a reserved connection: the write transactions', one after the other in each
   * process (its commit queue) and across processes (the write lock), each waiting for its answer.
   */
  writer: number;
  /** SELECT (the write lock's included: it is the third statement of the opening round trip). */
  reads: number;
  /** INSERT, UPDATE, DELETE. */
  writes: number;
  /** BEGIN, SET, SAVEPOINT, RELEASE, ROLLBACK, COMMIT. */
  transaction: number;
  commits: number;
}

const zero = (): PgCount => ({ roundTrips: 0, writer: 0, reads: 0, writes: 0, transaction: 0, commits: 0 });
const total = zero();

function note(text: string, reserved: boolean): void {
  total.roundTrips++;
  if (reserved) total.writer++;
  for (const statement of text.split(";")) {
    const verb = statement.trimStart().slice(0, 9).toUpperCase();
    if (!verb) continue;
    if (verb.startsWith("SELECT") || verb.startsWith("WITH")) total.reads++;
    else if (verb.startsWith("INSERT") || verb.startsWith("UPDATE") || verb.startsWith("DELETE")) total.writes++;
    else {
      total.transaction++;
      if (verb.startsWith("COMMIT")) total.commits++;
    }
  }
}

type Unsafe = (text: string, ...rest: unknown[]) => unknown;
type Client = { unsafe: Unsafe; reserve?: () => Promise<Client> };

function counted<C extends Client>(client: C, reserved = false): C {
  const unsafe = client.unsafe;
  client.unsafe = function (this: unknown, text: string, ...rest: unknown[]) {
    note(text, reserved);
    return unsafe.call(client, text, ...rest);
  };
  const reserve = client.reserve;
  if (reserve) client.reserve = async () => counted(await reserve.call(client), true);
  return client;
}

let installed = false;

/** From now on every Bun.SQL made in this process is counted; `since(before)` gives the difference. */
export function countPgStatements(): { now(): PgCount; since(before: PgCount): PgCount } {
  if (!installed) {
    installed = true;
    const Original = Bun.SQL;
    const Counted = function (this: unknown, ...args: unknown[]) {
      return counted(new (Original as unknown as new (...a: unknown[]) => Client)(...args));
    };
    (Bun as { SQL: unknown }).SQL = Counted;
  }
  return {
    now: () => ({ ...total }),
    since: (before) => {
      const d = zero();
      for (const k of Object.keys(d) as (keyof PgCount)[]) d[k] = total[k] - before[k];
      return d;
    },
  };
}
