import { afterAll, describe, expect, test } from "bun:test";
import { ManualClock } from "@ndc/clock";
import { runWebShopCommand } from "../../apps/cli/src/commands/web-shop";
import { boot, FLIGHT, freeSeats, liveSeatRows, occupiedSeats, tempDir, testSupply } from "./helpers";

/**
 * `ndc-gateway web-shop ...` in process, on a data directory of its own; then the NDC
 * facade on the same database sees (and is refused) what the web shop sold.
 */
const tmp = tempDir("ndc-inventory-cli-");
afterAll(() => tmp.cleanup());
const clock = new ManualClock(); // 2026-11-21: the supply starts that day, as the test supply does
const env = { GATEWAY_MODE: "local", GATEWAY_DATA_DIR: tmp.dir, SUPPLY_SEED: "test-seed", LOG_LEVEL: "silent" };
const [SEAT] = freeSeats(testSupply());

async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runWebShopCommand(args, { out: (l) => out.push(l), err: (l) => err.push(l), env }, { clock });
  return { code, out, err };
}

describe("web-shop CLI", () => {
  test("sell-seat sells once; the second attempt is refused with seat_unavailable", async () => {
    const first = await cli("sell-seat", FLIGHT, SEAT!, "--customer", "C-1");
    expect(first.code).toBe(0);
    expect(first.out[0]).toMatch(new RegExp(`^sold seat ${SEAT} on ${FLIGHT} \\(hold SH-[0-9a-f-]+, channel web_shop, holder web-shop:C-1\\)$`));
    const second = await cli("sell-seat", FLIGHT, SEAT!);
    expect(second.code).toBe(1);
    expect(second.err[0]).toStartWith("web-shop: seat_unavailable: ");
  });

  test("the NDC channel on the same database is refused the seat the web shop sold", async () => {
    const b = await boot(`file:${tmp.dir}/gateway.db`, { clock });
    try {
      await expect(b.ndc.holdSeats({ flightKey: FLIGHT, seatIds: [SEAT!], holder: "ORD-1" })).rejects.toMatchObject({ code: "seat_unavailable" });
      const rows = await liveSeatRows(b.store, FLIGHT, SEAT);
      expect(rows).toMatchObject([{ status: "sold", channel: "web_shop" }]);
    } finally {
      await b.close();
    }
  });

  test("seats prints the map with every channel's sales", async () => {
    const { code, out } = await cli("seats", FLIGHT);
    expect(code).toBe(0);
    const occupied = occupiedSeats(testSupply()).length;
    expect(out[0]).toBe(`${FLIGHT} aircraft 359: ${346 - occupied - 1} available, ${occupied} occupied, 0 held, 1 sold`);
    const row = Number(SEAT!.slice(0, -1));
    const line = out.find((l) => l.startsWith(`${String(row).padStart(3)} `))!;
    expect(line).toContain("s");
    expect(out.filter((l) => /^ {0,2}\d+ /.test(l))).toHaveLength(44); // rows 1-10 and 11-44 of the 359
  });

  test("refusals and mistakes", async () => {
    expect((await cli("sell-seat", FLIGHT, "99Z")).err[0]).toStartWith("web-shop: seat_not_found: ");
    expect((await cli("sell-seat", "XB-9999-2026-11-22", "1A")).err[0]).toStartWith("web-shop: flight_not_found: ");
    expect((await cli("seats", "XB-9999-2026-11-22")).code).toBe(1);
    expect((await cli()).code).toBe(2);
    await expect(cli("sell-seat", FLIGHT)).rejects.toThrow("takes FLIGHT_KEY SEAT_ID");
    await expect(cli("refund", FLIGHT)).rejects.toThrow('unknown command "refund"');
    await expect(cli("seats", FLIGHT, "--colour", "red")).rejects.toThrow("unknown option --colour");
  });
});
