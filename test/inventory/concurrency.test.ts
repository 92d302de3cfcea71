import { afterAll, describe, expect, test } from "bun:test";
import { boot, DRIVERS, FLIGHT, freeSeats, liveSeatRows, settle, tempDir, testSupply, type Booted } from "./helpers";

/**
 * Spec 4.4 rule 3 and 8: a seat is sold once across every channel. 200 callers race for one
 * seat, half through the NDC facade (hold, as OrderCreate will), half through the web shop
 * (hold and confirm in one call), all interleaved.
 */
const ATTEMPTS = 200;
const [SEAT, SEAT_AFTER_RESTART] = freeSeats(testSupply());

function race(b: Booted, seatId: string) {
  return settle(
    Array.from({ length: ATTEMPTS }, (_, i) =>
      i % 2 === 0
        ? b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [seatId], holder: `ORD-${i}` })
        : b.webShop.sellSeat(FLIGHT, seatId, { customerRef: `cust-${i}` }),
    ),
  );
}

describe.each(DRIVERS)("200 concurrent sales of one seat from both channels (%s)", (driver) => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  test("exactly one succeeds, 199 get seat_unavailable, one live row", async () => {
    const b = await boot(tmp.url, { driver });
    try {
      const { ok, codes } = await race(b, SEAT!);
      expect(ok).toHaveLength(1);
      expect(codes).toHaveLength(ATTEMPTS - 1);
      expect(new Set(codes)).toEqual(new Set(["seat_unavailable"]));
      const rows = await liveSeatRows(b.store, FLIGHT, SEAT);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.hold_id).toBe(ok[0]!.holdId);
      expect(rows[0]!.channel).toBe(ok[0]!.channel);
      const seat = (await b.service.seatAvailability(FLIGHT)).seats.find((s) => s.seatId === SEAT);
      expect(seat?.status).toBe(ok[0]!.status === "sold" ? "sold" : "held");
    } finally {
      await b.close();
    }
  });

  test("after a restart the rehydrated actor still refuses the seat, and sells another once", async () => {
    const b = await boot(tmp.url, { driver });
    try {
      const again = await race(b, SEAT!);
      expect(again.ok).toHaveLength(0);
      expect(new Set(again.codes)).toEqual(new Set(["seat_unavailable"]));
      const fresh = await race(b, SEAT_AFTER_RESTART!);
      expect(fresh.ok).toHaveLength(1);
      expect(fresh.codes.filter((c) => c === "seat_unavailable")).toHaveLength(ATTEMPTS - 1);
      expect(await liveSeatRows(b.store, FLIGHT, SEAT)).toHaveLength(1);
      expect(await liveSeatRows(b.store, FLIGHT, SEAT_AFTER_RESTART)).toHaveLength(1);
      expect(await liveSeatRows(b.store, FLIGHT)).toHaveLength(2);
    } finally {
      await b.close();
    }
  });
});
