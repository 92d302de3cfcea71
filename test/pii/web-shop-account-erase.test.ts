import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { loadConfig } from "@ndc/config";
import { createSupply } from "@ndc/supply";
import { addDays } from "@ndc/supply";
import { totpAt } from "@ndc/staff";
import { killAll, run, sourceCli, type Finished } from "../binary/processes";
import { tempDir } from "../inventory/helpers";
import { openStore } from "@ndc/store";
import { sql } from "drizzle-orm";
import { databaseUrlFor, ON_POSTGRES } from "../support/database";
import { everyRow } from "../support/stored-rows";

/**
 * Spec 8's erasure paths with the CLI as real processes on one data directory: a web-shop
 * customer account books through the order domain; deleting the account erases the identity
 * documents of its orders (numbers and every personal column gone from the file and its WAL, an
 * audit row per order), leaves guest orders and other accounts' orders alone, and can be run
 * again; a guest order's documents go by an airline supervisor's erase. No document number is in
 * any line a process printed.
 */
const tmp = tempDir("ndc-web-shop-accounts-");
const env = { GATEWAY_MODE: "local", GATEWAY_DATA_DIR: tmp.dir, SUPPLY_SEED: "test-seed", LOG_LEVEL: "info" };
const printed: string[] = [];
const NUMBERS = { A: "WSA7731XK0946", B: "WSB5521QT0077", G: "WSG9914ZZ0312" };
const SURNAMES = { A: "QUILLFEATHER", B: "BRAMBLEWICK", G: "SNODGRASSE" };
/** What only the identity document holds (the passenger's own name stays on the order). */
const DOC_ONLY = { A: "HOLDERAQUILL", B: "HOLDERBBRAMBLE", G: "HOLDERGSNOD" };
let flightKey: string;

async function cli(...args: string[]): Promise<Finished> {
  const r = await run(sourceCli, args, env, 60_000);
  printed.push(r.stdout, r.stderr);
  return r;
}

function passengersFile(who: keyof typeof NUMBERS): string {
  const file = join(tmp.dir, `pax-${who}.json`);
  const doc = { IdentityDocTypeCode: "PT", IdentityDocID: NUMBERS[who], Surname: DOC_ONLY[who], IssuingCountryCode: "GB", CitizenshipCountryCode: "GB", ExpiryDate: "2032-03-01", BirthplaceText: `BIRTHPLACE${who}TOWN` };
  writeFileSync(file, JSON.stringify([{ givenNames: ["ADA"], surname: SURNAMES[who], birthdate: "1990-12-10", identityDocs: [doc] }]));
  return file;
}

const orderOf = (r: Finished) => /booked order (\S+) /.exec(r.stdout)?.[1];
const SEALED_SQL = "SELECT holder_surname AS s, number_ciphertext AS c FROM identity_documents";
/** The sealed numbers as stored (base64), read by a reader of its own: the file on SQLite, the database on PostgreSQL. */
async function ciphertexts(): Promise<Record<string, string | null>> {
  let rows: { s: string | null; c: string | null }[];
  if (ON_POSTGRES) {
    const store = await openStore(databaseUrlFor(tmp.dir));
    try {
      rows = (await store.db.all(sql.raw(SEALED_SQL))) as typeof rows;
    } finally {
      await store.close();
    }
  } else {
    const db = new Database(join(tmp.dir, "gateway.db"), { readonly: true });
    try {
      rows = db.query(SEALED_SQL).all() as typeof rows;
    } finally {
      db.close();
    }
  }
  // An erased document keeps its id and no field: keyed apart so none hides another.
  return Object.fromEntries(rows.map((r, i) => [r.s ?? `erased-${i}`, r.c]));
}
const has = (bytes: string, s: string) => bytes.includes(s);
/**
 * What the store holds. SQLite: every byte of the file and its WAL (secure_delete must have
 * overwritten an erased value there too). PostgreSQL: every row (erased bytes stay in its dead
 * tuples until VACUUM and in WAL, replicas and backups for their retention: docs/operations.md
 * "Erasure on PostgreSQL"; the sealed number is what protects them).
 */
async function fileBytes(): Promise<string> {
  if (!ON_POSTGRES) return ["gateway.db", "gateway.db-wal"].map((f) => join(tmp.dir, f)).filter(existsSync).map((f) => readFileSync(f).toString("latin1")).join("");
  const store = await openStore(databaseUrlFor(tmp.dir));
  try {
    return JSON.stringify(await everyRow(store));
  } finally {
    await store.close();
  }
}

beforeAll(() => {
  // The processes run on the wall clock: the supply starts today, as theirs does.
  const config = loadConfig(env);
  const supply = createSupply({ seed: "test-seed", startDate: new Date().toISOString().slice(0, 10), designator: config.airline.designator, airlineName: config.airline.name });
  const date = addDays(supply.startDate, 20);
  flightKey = supply.journeys("LHR", "CDG", date).find((j) => j.segments.length === 1)!.segments[0]!.key;
});
afterAll(() => {
  killAll();
  tmp.cleanup();
});

test("account add, book, delete: its orders' documents erased with an audit row each; guest and other accounts untouched; delete again finishes", async () => {
  const a = await cli("web-shop", "account", "add", "--email", "ada@example.com", "--name", "Ada Quillfeather");
  expect(a.code).toBe(0);
  const accountA = /account (WSA-\S+) added/.exec(a.stdout)![1]!;
  const b = await cli("web-shop", "account", "add", "--email", "bea@example.com", "--name", "Bea Bramblewick");
  const accountB = /account (WSA-\S+) added/.exec(b.stdout)![1]!;
  expect((await cli("web-shop", "account", "add", "--email", "ADA@example.com", "--name", "Again")).stderr).toContain("web_shop_account_exists");
  const invalid = await cli("web-shop", "account", "add", "--email", "not-an-email", "--name", "X");
  expect([invalid.code, invalid.stderr.includes("web_shop_account_invalid")]).toEqual([1, true]);
  expect((await cli("web-shop", "account", "add", "--email", "x@example.com")).code).toBe(2);
  const noFlight = await cli("web-shop", "book", "XB-9999-2030-01-01", "--passengers", passengersFile("A"), "--account", accountA);
  expect([noFlight.code, noFlight.stderr.includes("flight_not_found")]).toEqual([1, true]);
  expect((await cli("web-shop", "book", flightKey, "--passengers", join(tmp.dir, "missing.json"))).code).toBe(2);

  const bookA = await cli("web-shop", "book", flightKey, "--passengers", passengersFile("A"), "--account", accountA, "--card-token", "tok_approve_visa");
  expect(bookA.code).toBe(0);
  expect(bookA.stdout).toContain("(booked)");
  const bookB = await cli("web-shop", "book", flightKey, "--passengers", passengersFile("B"), "--account", accountB, "--card-token", "tok_approve_visa");
  const bookG = await cli("web-shop", "book", flightKey, "--passengers", passengersFile("G"));
  expect(bookG.stdout).toContain("(held_unpaid) for a guest");
  const [orderA, orderB, orderG] = [orderOf(bookA)!, orderOf(bookB)!, orderOf(bookG)!];
  expect(new Set([orderA, orderB, orderG]).size).toBe(3);
  const sealed = await ciphertexts();
  expect(Object.keys(sealed).sort()).toEqual(Object.values(DOC_ONLY).sort());
  let bytes = await fileBytes();
  for (const w of ["A", "B", "G"]) expect(has(bytes, `BIRTHPLACE${w}TOWN`)).toBe(true);
  for (const c of Object.values(sealed)) expect(has(bytes, c!)).toBe(true);

  const del = await cli("web-shop", "account", "delete", accountA);
  expect(del.code).toBe(0);
  expect(del.stdout).toContain(`account ${accountA} deleted: 1 identity document(s) erased on 1 order(s)`);
  // The sealed number and the birthplace (held by the document alone) gone from the database file and its WAL; the others' still there.
  bytes = await fileBytes();
  expect(has(bytes, sealed[DOC_ONLY.A]!)).toBe(false);
  expect(has(bytes, "BIRTHPLACEATOWN")).toBe(false);
  expect((await ciphertexts())[DOC_ONLY.A]).toBeUndefined();
  expect(has(bytes, sealed[DOC_ONLY.B]!)).toBe(true);
  expect(has(bytes, DOC_ONLY.G)).toBe(true);
  // The account itself keeps no email or name.
  const list = await cli("web-shop", "account", "list");
  expect(list.stdout).toContain(`${accountA}  deleted `);
  expect(list.stdout).not.toContain("ada@example.com");
  expect(list.stdout).toContain("bea@example.com");

  const audit = await cli("documents", "erasures");
  expect(audit.stdout.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`order ${orderA}  1 document\\(s\\)  account_deletion  by web-shop-account:${accountA}$`))]);

  // A deleted account books nothing; deleting it again erases what is left (nothing) and succeeds.
  const refused = await cli("web-shop", "book", flightKey, "--passengers", passengersFile("A"), "--account", accountA);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("web_shop_account_deleted");
  const again = await cli("web-shop", "account", "delete", accountA);
  expect(again.stdout).toContain("0 identity document(s) erased on 1 order(s)");
  expect((await cli("web-shop", "account", "delete", "WSA-nope")).stderr).toContain("web_shop_account_not_found");

  // The guest order: only a supervisor's erase (or the retention sweep) takes its documents. The
  // supervisor is a staff account present with its TOTP code (issue 19 item 10): a made-up name erases nothing.
  expect((await cli("documents", "erase", orderG, "--supervisor", "sup-7")).code).toBe(2);
  expect((await cli("documents", "erase", orderG, "--supervisor", "sup-7", "--totp", "123456", "--reason", "the passenger asked")).stderr).toContain("no staff account named sup-7");
  const sup = JSON.parse((await cli("staff", "add", "sup7", "--role", "supervisor", "--json")).stdout) as { totpSecret: string };
  // The processes run on the wall clock (the code is accepted a step either side); an unknown order spends no code.
  const code = totpAt(sup.totpSecret, Date.now());
  expect((await cli("documents", "erase", "ORD-nope", "--supervisor", "sup7", "--totp", code, "--reason", "the passenger asked")).stderr).toContain("order_not_found");
  const erase = await cli("documents", "erase", orderG, "--supervisor", "sup7", "--totp", code, "--reason", "the passenger asked");
  expect(erase.stdout).toContain(`order ${orderG}: 1 document(s) erased by sup7`);
  expect(has(await fileBytes(), sealed[DOC_ONLY.G]!)).toBe(false);
  expect(has(await fileBytes(), "BIRTHPLACEGTOWN")).toBe(false);
  const left = await ciphertexts();
  expect(Object.keys(left).filter((k) => !k.startsWith("erased-"))).toEqual([DOC_ONLY.B]);
  expect(Object.entries(left).filter(([k]) => k.startsWith("erased-")).map(([, c]) => c)).toEqual([null, null]);
  expect(has(await fileBytes(), DOC_ONLY.B)).toBe(true);
  const guestAudit = await cli("documents", "erasures", orderG);
  expect(guestAudit.stdout).toMatch(/order \S+  1 document\(s\)  supervisor  by stf_\S+  reason: the passenger asked/);

  // No document number in any line any process printed.
  const all = printed.join("\n");
  expect(all.length).toBeGreaterThan(0);
  for (const n of Object.values(NUMBERS)) expect(all).not.toContain(n);
}, 300_000);
