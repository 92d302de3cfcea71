import { describe, expect, test } from "bun:test";
import { money, toDecimalString } from "@ndc/money";
import { BASE_CURRENCY, RATE_TABLE, convert } from "@ndc/supply";

// The airline's rate table and conversion (packages/supply/src/exchange/rates.ts); the exact
// arithmetic underneath is @ndc/money's (test/money).
describe("the simulated airline's exchange rates", () => {
  test("the rate table converts from EUR to at least EUR, USD, GBP, CHF and JPY", () => {
    expect(BASE_CURRENCY).toBe("EUR");
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
});
