import { expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { BUCKETS_MS, quantileMs, slotOf, SLOTS } from "../../apps/gateway/src/metrics/histogram";
import { TrafficMeter } from "../../apps/gateway/src/metrics/meter";

/** The meter's arithmetic, which the HTTP tests see only through a few calls: buckets, quantiles, the hour's ring. */

test("a duration falls in the first bucket whose bound it does not exceed; past the last, +Inf", () => {
  expect(slotOf(0)).toBe(0);
  expect(slotOf(0.25)).toBe(0);
  expect(slotOf(0.26)).toBe(1);
  expect(slotOf(10_000)).toBe(BUCKETS_MS.length - 1);
  expect(slotOf(10_001)).toBe(SLOTS - 1);
});

test("quantiles interpolate within the bucket they fall in, as histogram_quantile does", () => {
  const counts = new Array(SLOTS).fill(0);
  expect(quantileMs(counts, 0.5)).toBeNull();
  counts[slotOf(3)] = 100; // 100 calls in (2.5, 5]
  expect(quantileMs(counts, 0.5)).toBeCloseTo(3.75, 6);
  expect(quantileMs(counts, 0.99)).toBeCloseTo(4.975, 6);
  counts[SLOTS - 1] = 100; // and 100 slower than 10 s
  expect(quantileMs(counts, 0.5)).toBe(5);
  expect(quantileMs(counts, 0.99)).toBe(10_000);
});

test("the last hour slides by the minute: a slot is reused only for its minute, and a gap of hours leaves nothing", () => {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 30));
  const m = new TrafficMeter(clock);
  const call = (errorCode?: string) => m.record({ message: "AirShoppingRQ", clientId: "c1", agencyId: "A1", status: errorCode ? 429 : 200, errorCode, durationMs: 1 });
  const hour = () => m.messageFigures()[0]!.lastHour;
  const client = () => m.clientFigures(() => "shop")[0]!;
  for (let minute = 0; minute < 90; minute++) {
    call();
    if (minute % 10 === 0) call("rate_limited");
    clock.advance(60_000);
  }
  // At minute 90 the last hour is minutes 31 to 90, the one under way included (no call in it yet):
  // 59 calls answered and 5 refused (minutes 40 to 80).
  expect(hour()).toMatchObject({ requests: 59 + 5, errors: 5 });
  expect(client().lastHour).toMatchObject({ requests: 64, rateLimited: 5, errors: 5, busiestMinute: { shop: 2 }, looks: 59, books: 0, lookToBook: null });
  expect(client().sinceStart).toMatchObject({ requests: 99, rateLimited: 9 });
  clock.advance(5 * 3_600_000);
  expect(hour()).toMatchObject({ requests: 0, errors: 0, p50Ms: null });
  call();
  expect(hour()).toMatchObject({ requests: 1, errors: 0 });
  expect(m.messageFigures()[0]!.sinceStart.requests).toBe(100);
});
