import { expect, test } from "bun:test";
import { DEFAULT_TRAVEL_DOC_RETENTION_DAYS, retentionDeadline } from "@ndc/pii";

const DAY = 86_400_000;
const t = (iso: string) => Date.parse(iso);

test.each([
  ["default 30 days after the only travel end", [t("2025-03-01T10:00:00Z")], undefined, t("2025-03-31T10:00:00Z")],
  ["from the latest travel end", [t("2025-03-01T10:00:00Z"), t("2025-03-20T08:00:00Z"), t("2025-03-05T00:00:00Z")], 30, t("2025-04-19T08:00:00Z")],
  ["operator's own number of days", [t("2025-03-01T00:00:00Z")], 7, t("2025-03-08T00:00:00Z")],
  ["zero days: at travel end", [t("2025-03-01T00:00:00Z")], 0, t("2025-03-01T00:00:00Z")],
  ["Date values", [new Date("2025-03-01T00:00:00Z")], 1, t("2025-03-02T00:00:00Z")],
  ["no travel dates held: kept", [], 30, undefined],
] as const)("%s", (_n, ends, days, expected) => {
  expect(retentionDeadline(ends, days)).toBe(expected);
});

test("a flight moved later moves the deadline (it is computed from the order as it is now)", () => {
  const before = retentionDeadline([t("2025-03-01T00:00:00Z")])!;
  const after = retentionDeadline([t("2025-03-04T00:00:00Z")])!;
  expect(after - before).toBe(3 * DAY);
  expect(DEFAULT_TRAVEL_DOC_RETENTION_DAYS).toBe(30);
});

test("bad input is refused rather than guessed at", () => {
  expect(() => retentionDeadline([NaN])).toThrow(RangeError);
  expect(() => retentionDeadline([new Date("nope")])).toThrow(RangeError);
  expect(() => retentionDeadline([0], -1)).toThrow(RangeError);
  expect(() => retentionDeadline([0], 1.5)).toThrow(RangeError);
});
