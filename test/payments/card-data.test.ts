import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { containsCardNumber, luhnValid, refuseCardData } from "@ndc/payments";
import { eur, harness, refusal, type Harness } from "./helpers";

let h: Harness;
beforeAll(async () => {
  h = await harness("payments-card");
});
afterAll(async () => {
  await h.close();
});

test.each([
  ["4111111111111111", true],
  ["4111 1111 1111 1111", true],
  ["4111-1111-1111-1111", true],
  ["378282246310005", true],
  ["6011 0009 9013 9424", true],
  ["4111111111111112", false],
  ["411111111111", false],
  ["tok_approve_visa", false],
  ["order 4111111111111111 paid", true],
])("card number detection: %s -> %p", (text, expected) => {
  expect(containsCardNumber(text)).toBe(expected);
});

test("Luhn", () => {
  expect(luhnValid("79927398713")).toBe(true);
  expect(luhnValid("79927398710")).toBe(false);
});

test("a CVV or CVC field is refused whatever its value, and the error never echoes the value", () => {
  for (const name of ["cvv", "CVC", "cvc2", "SeriesCode", "security_code"]) {
    let caught: unknown;
    try {
      refuseCardData({ token: "tok_approve_visa", [name]: "737" });
    } catch (e) {
      caught = e;
    }
    expect((caught as { code: string }).code).toBe("card_data_refused");
    expect(JSON.stringify(caught) + String(caught)).not.toContain("737");
  }
  let caught: unknown;
  try {
    refuseCardData({ payer: { note: "4111 1111 1111 1111" } });
  } catch (e) {
    caught = e;
  }
  expect((caught as { code: string; element: string }).element).toBe("payer/note");
  expect(String((caught as Error).message)).not.toContain("4111");
  expect(() => refuseCardData({ token: "tok_approve_visa", amount: { amount: 12345, currency: "EUR" } })).not.toThrow();
});

test("a leg carrying a card number or CVV is refused and nothing of it reaches the database (its rows; on SQLite its file too)", async () => {
  const pan = "4111111111111111";
  const legs = [
    { kind: "card", token: "tok_approve_visa", amount: eur(100), cardNumber: "4111 1111 1111 1111" },
    { kind: "card", token: pan, amount: eur(100) },
    { kind: "card", token: "tok_approve_visa", amount: eur(100), cvv: "9731" },
  ];
  for (const [i, leg] of legs.entries()) {
    expect(await refusal(() => h.payments.authoriseAll("ORD-PAN", "sale", [leg as never], `pan-${i}`))).toBe("card_data_refused");
    expect(await refusal(() => h.payments.ledger.authorise("ORD-PAN", "sale", leg as never, `pan-leg-${i}`))).toBe("card_data_refused");
  }
  // A good leg afterwards, so the file surely has pages written.
  await h.payments.authoriseAll("ORD-PAN", "sale", [{ kind: "card", token: "tok_approve_visa", amount: eur(100) }], "pan-ok");
  const needles = [pan, "4111 1111 1111 1111", "9731"];
  // Every row of every table, read through the store: the check both engines share.
  const rows = JSON.stringify(await everyRow(h));
  expect(rows).toContain("ORD-PAN");
  for (const needle of needles) expect(rows.includes(needle)).toBe(false);
  // On SQLite also the file's bytes (free pages, the WAL): PostgreSQL keeps no file of ours to read.
  if (h.store.dialect === "sqlite") {
    await h.store.exec("PRAGMA wal_checkpoint(FULL)");
    for (const f of readdirSync(h.dir)) {
      const bytes = readFileSync(join(h.dir, f)).toString("latin1");
      for (const needle of needles) expect(bytes.includes(needle)).toBe(false);
    }
  }
  expect(await h.payments.ledger.legs("ORD-PAN")).toHaveLength(1);
});

/** Every row of every table of the harness's database, table by table. */
async function everyRow(h: Harness): Promise<Record<string, unknown[]>> {
  const names = (await h.store.db.all(
    h.store.dialect === "postgres"
      ? sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
      : sql`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`,
  )) as { name: string }[];
  const out: Record<string, unknown[]> = {};
  for (const { name } of names) out[name] = await h.store.db.all(sql.raw(`SELECT * FROM "${name}"`));
  return out;
}
