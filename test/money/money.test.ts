import { describe, expect, test } from "bun:test";
import { add, CURRENCIES, fromDecimalString, isCurrencyCode, min, minorUnits, money, mulDivRound, percentOf, subtract, sum, toDecimalString, zero } from "@ndc/money";

describe("@ndc/money: exact amounts", () => {
  test("amounts are integers of minor units; a float or an unsafe integer is refused", () => {
    expect(() => money(10.5, "EUR")).toThrow();
    expect(() => money(Number.MAX_SAFE_INTEGER + 2, "EUR")).toThrow();
    expect(money(0, "JPY")).toEqual(zero("JPY"));
  });

  test("amounts in two currencies never mix", () => {
    expect(() => sum([money(1, "EUR"), money(1, "USD")], "EUR")).toThrow();
    expect(() => add(money(1, "EUR"), money(1, "GBP"))).toThrow();
    expect(() => subtract(money(1, "EUR"), money(1, "GBP"))).toThrow();
    expect(() => min(money(1, "EUR"), money(1, "GBP"))).toThrow();
    expect(sum([money(150, "EUR"), money(-50, "EUR")], "EUR")).toEqual(money(100, "EUR"));
    expect(min(money(3, "EUR"), money(2, "EUR"))).toEqual(money(2, "EUR"));
  });

  test("ISO 4217 exponents: two digits for most, none for JPY; an unknown code is not a currency", () => {
    expect(minorUnits("EUR")).toBe(2);
    expect(minorUnits("JPY")).toBe(0);
    for (const c of ["EUR", "USD", "GBP", "CHF", "JPY", "SGD", "AED", "BRL"]) expect(isCurrencyCode(c)).toBe(true);
    expect(isCurrencyCode("XXX")).toBe(false);
    expect(isCurrencyCode("toString")).toBe(false);
    expect(Object.keys(CURRENCIES).length).toBe(8);
  });

  test("half away from zero in integer arithmetic", () => {
    expect(mulDivRound(5, 1, 2)).toBe(3);
    expect(mulDivRound(-5, 1, 2)).toBe(-3);
    expect(mulDivRound(5, -1, 2)).toBe(-3);
    expect(mulDivRound(5, 1, -2)).toBe(-3);
    expect(mulDivRound(4, 1, 3)).toBe(1);
    expect(() => mulDivRound(1, 1, 0)).toThrow();
    expect(percentOf(money(1_999, "EUR"), 1_000)).toEqual(money(200, "EUR"));
    // a product far beyond 2^53 stays exact: (2^53 - 1) x 3 / 3
    expect(mulDivRound(Number.MAX_SAFE_INTEGER, 3, 3)).toBe(Number.MAX_SAFE_INTEGER);
  });

  test("decimal strings round-trip with the currency's digits", () => {
    expect(toDecimalString(money(1_230, "EUR"))).toBe("12.30");
    expect(toDecimalString(money(5, "USD"))).toBe("0.05");
    expect(toDecimalString(money(-5, "USD"))).toBe("-0.05");
    expect(toDecimalString(money(1_624, "JPY"))).toBe("1624");
    expect(fromDecimalString("12.3", "EUR")).toEqual(money(1_230, "EUR"));
    expect(fromDecimalString("1624", "JPY")).toEqual(money(1_624, "JPY"));
    expect(fromDecimalString("-0.05", "USD")).toEqual(money(-5, "USD"));
    expect(() => fromDecimalString("16.5", "JPY")).toThrow();
    expect(() => fromDecimalString("1.234", "EUR")).toThrow();
    expect(() => fromDecimalString("1e3", "EUR")).toThrow();
    for (const amount of [0, 1, 99, 100, -101, 123_456_789]) {
      for (const c of ["EUR", "JPY"] as const) expect(fromDecimalString(toDecimalString(money(amount, c)), c)).toEqual(money(amount, c));
    }
  });
});
