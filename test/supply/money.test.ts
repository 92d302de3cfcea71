import { describe, expect, test } from "bun:test";
import { RATE_TABLE, convert, fromDecimalString, money, mulDivRound, percentOf, sum, toDecimalString } from "@ndc/supply";

describe("money and currencies", () => {
  test("amounts are integers of minor units; a float is refused", () => {
    expect(() => money(10.5, "EUR")).toThrow();
    expect(() => money(Number.MAX_SAFE_INTEGER + 2, "EUR")).toThrow();
    expect(() => sum([money(1, "EUR"), money(1, "USD")], "EUR")).toThrow();
  });

  test("the rate table converts from EUR to at least EUR, USD, GBP, CHF and JPY", () => {
    for (const c of ["EUR", "USD", "GBP", "CHF", "JPY"] as const) expect(RATE_TABLE[c]).toBeDefined();
    expect(convert(money(10_000, "EUR"), "USD")).toEqual(money(10_850, "USD"));
    expect(convert(money(10_000, "EUR"), "GBP")).toEqual(money(8_420, "GBP"));
    expect(convert(money(10_000, "EUR"), "CHF")).toEqual(money(9_410, "CHF"));
    expect(convert(money(12_345, "EUR"), "EUR")).toEqual(money(12_345, "EUR"));
  });

  test("JPY has no decimals: EUR cents become whole yen, rounded half away from zero", () => {
    // 1.00 EUR = 162.35 JPY -> 162; 10.00 EUR = 1623.5 -> 1624 (tie goes up); 0.01 EUR = 1.6235 -> 2
    expect(convert(money(100, "EUR"), "JPY")).toEqual(money(162, "JPY"));
    expect(convert(money(1_000, "EUR"), "JPY")).toEqual(money(1_624, "JPY"));
    expect(convert(money(1, "EUR"), "JPY")).toEqual(money(2, "JPY"));
    expect(convert(money(-1_000, "EUR"), "JPY")).toEqual(money(-1_624, "JPY"));
    expect(toDecimalString(money(1_624, "JPY"))).toBe("1624");
  });

  test("conversion is exact for large amounts (no float drift)", () => {
    // 123,456,789.01 EUR x 1.0850 = 133,950,616.07585 -> 133,950,616.08
    expect(convert(money(12_345_678_901, "EUR"), "USD")).toEqual(money(13_395_061_608, "USD"));
  });

  test("only base-currency amounts are converted (rules in other currencies are never converted)", () => {
    expect(() => convert(money(100, "GBP"), "EUR")).toThrow();
  });

  test("half away from zero in integer arithmetic", () => {
    expect(mulDivRound(5, 1, 2)).toBe(3);
    expect(mulDivRound(-5, 1, 2)).toBe(-3);
    expect(mulDivRound(4, 1, 3)).toBe(1);
    expect(percentOf(money(1_999, "EUR"), 1_000)).toEqual(money(200, "EUR"));
  });

  test("decimal strings round-trip with the currency's digits", () => {
    expect(toDecimalString(money(1_230, "EUR"))).toBe("12.30");
    expect(toDecimalString(money(5, "USD"))).toBe("0.05");
    expect(toDecimalString(money(-5, "USD"))).toBe("-0.05");
    expect(fromDecimalString("12.3", "EUR")).toEqual(money(1_230, "EUR"));
    expect(fromDecimalString("1624", "JPY")).toEqual(money(1_624, "JPY"));
    expect(() => fromDecimalString("16.5", "JPY")).toThrow();
    expect(() => fromDecimalString("1.234", "EUR")).toThrow();
  });
});
