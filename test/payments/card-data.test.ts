import { afterAll, beforeAll, expect, test } from "bun:test";
import { containsCardNumber, luhnValid, refuseCardData } from "@ndc/payments";
import { databaseText } from "../support/stored-rows";
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
  const stored = await databaseText(h.store, h.dir);
  // The scan reads what was written: the good leg's order is there, the refused numbers are not.
  expect(stored).toContain("ORD-PAN");
  for (const needle of [pan, "4111 1111 1111 1111", "9731"]) expect(stored.includes(needle)).toBe(false);
  expect(await h.payments.ledger.legs("ORD-PAN")).toHaveLength(1);
});
