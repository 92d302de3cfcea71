import { expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { isGatewayError } from "@ndc/errors";
import type { PartnerCommand, SeatCommand } from "@ndc/inventory";
import { decideHoldable } from "../../packages/inventory/src/holdable/decide";
import { evolveHoldable } from "../../packages/inventory/src/holdable/evolve";
import { PARTNER_STOCK } from "../../packages/inventory/src/partners/shape";
import type { PartnerEvent, PartnerStockValue } from "../../packages/inventory/src/partners/state";
import { SEAT_STOCK } from "../../packages/inventory/src/seats/shape";
import type { SeatEvent, SeatInventoryValue } from "../../packages/inventory/src/seats/state";

/**
 * Seats and partner stock became one holdable-stock shape (decision 0011). This runs random
 * command sequences through the two copies they replaced (packages/inventory/src at BEFORE, read
 * from git) and through the shared shape, step by step from the same state with the same clock and
 * hold ids, and requires the same outcome each time: the same refusal (code and text) or the same
 * events and reply, and the same state after, compared as JSON so the journal's bytes are the
 * same too. The old copies live only in history, so nothing here is a second implementation.
 */
const BEFORE = "f3d0051";
const root = join(import.meta.dir, "../..");
// Under node_modules so the old files resolve @ndc/errors as the project does; never committed.
const oldDir = join(root, "node_modules/.cache/ndc-inventory-before");

function extractBefore(): boolean {
  const files = ["types.ts", "seats/commands.ts", "seats/decide.ts", "seats/state.ts", "partners/commands.ts", "partners/decide.ts", "partners/state.ts"];
  rmSync(oldDir, { recursive: true, force: true });
  for (const f of files) {
    const r = Bun.spawnSync(["git", "show", `${BEFORE}:packages/inventory/src/${f}`], { cwd: root });
    if (r.exitCode !== 0) return false;
    mkdirSync(join(oldDir, f, ".."), { recursive: true });
    writeFileSync(join(oldDir, f), r.stdout);
  }
  return true;
}

// A shallow clone has no BEFORE: then there is nothing to compare with (the inventory property
// and behaviour tests, unchanged by the move, still run).
const haveBefore = extractBefore();

type Outcome = { refused: string } | { events: unknown[]; reply: unknown };
type Step<V, C> = (value: V, command: C, now: number, newHoldId: () => string) => Outcome & { after?: V };

function run<V, C, E>(decide: (v: V, c: C, now: number, id: () => string) => { events: E[]; reply: unknown }, evolve: (v: V, e: E) => V): Step<V, C> {
  return (value, command, now, newHoldId) => {
    try {
      const { events, reply } = decide(value, command, now, newHoldId);
      return { events, reply, after: events.reduce(evolve, value) };
    } catch (e) {
      if (!isGatewayError(e)) throw e;
      return { refused: `${e.code} ${e.message}` };
    }
  };
}

/**
 * Replays one sequence through both and returns the first step where they differ, or null.
 * `tally` counts what the steps exercised, so a generator that only produced refusals would show.
 */
function compare<V, C>(
  initial: V,
  steps: { command: (ids: string[], now: number) => C; advance: number }[],
  before: Step<V, C>,
  after: Step<V, C>,
  tally: { refused: number; recorded: number; answered: number },
): string | null {
  let a = initial;
  let b = initial;
  let now = 1_000_000;
  let idsA = 0;
  let idsB = 0;
  const issued: string[] = [];
  for (const [i, s] of steps.entries()) {
    now += s.advance;
    const command = s.command(issued, now);
    const oa = before(a, command, now, () => `H${++idsA}`);
    const ob = after(b, command, now, () => `H${++idsB}`);
    const ja = JSON.stringify({ ...oa, after: undefined });
    const jb = JSON.stringify({ ...ob, after: undefined });
    if (ja !== jb) return `step ${i} ${JSON.stringify(command)}:\n  before ${ja}\n  after  ${jb}`;
    if (oa.after && ob.after) {
      const [sa, sb] = [JSON.stringify(oa.after), JSON.stringify(ob.after)];
      if (sa !== sb) return `state after step ${i} ${JSON.stringify(command)}:\n  before ${sa}\n  after  ${sb}`;
      a = oa.after;
      b = ob.after;
    }
    if ("events" in oa) for (const e of oa.events as { type: string; holdId: string }[]) if (e.type === "held") issued.push(e.holdId);
    if ("refused" in oa) tally.refused++;
    else tally[(oa.events as unknown[]).length ? "recorded" : "answered"]++;
  }
  return null;
}

const MIN = 60_000;
/** Mostly well-formed, so holds are taken and then confirmed, released and replayed; sometimes not. */
const rarely = <T>(usual: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) => fc.oneof({ arbitrary: usual, weight: 12 }, { arbitrary: odd, weight: 1 });
const channel = rarely(fc.constantFrom("ndc", "web_shop"), fc.constant("fax"));
const expiry = rarely(fc.constantFrom(1, 2, 5, 10), fc.constantFrom(-1, 0)).map((m) => (m < 0 ? Number.NaN : m * MIN));
const advance = fc.constantFrom(0, 0, 0, MIN, 3 * MIN, 11 * MIN);
/** A hold id: one issued earlier, the caller's own (replayed later), or unknown. */
const holdRef = fc.oneof(fc.nat().map((i) => (ids: string[]) => ids[i % Math.max(ids.length, 1)] ?? "H-none"), fc.constantFrom("MINE-1", "MINE-2", "H-none").map((id) => (_ids: string[]) => id));
const ownId = fc.option(fc.constantFrom("MINE-1", "MINE-2"), { nil: undefined });

const SEATS = ["1A", "1B", "1C", "2A", "9Z"]; // 2A occupied, 9Z not on the map
const seatCommand = fc.oneof(
  fc.record({ op: fc.constantFrom("hold" as const, "sell" as const), seats: rarely(fc.subarray(SEATS.slice(0, 3), { minLength: 1, maxLength: 2 }), fc.oneof(fc.subarray(SEATS, { minLength: 1, maxLength: 3 }), fc.constantFrom([], ["1A", "1A"], Array(10).fill("1B")))), holder: rarely(fc.constantFrom("O1", "O2"), fc.constant("")), channel, ttl: expiry, holdId: ownId }).map(
    (r) => (_ids: string[], now: number) => ({ op: r.op, seatIds: r.seats, holder: r.holder, channel: r.channel, expiresAt: now + r.ttl, holdId: r.holdId }) as SeatCommand,
  ),
  fc.record({ op: fc.constantFrom("confirm" as const, "release" as const), ref: holdRef }).map((r) => (ids: string[], _now: number) => ({ op: r.op, holdId: r.ref(ids) }) as SeatCommand),
  fc.constantFrom({ op: "expire" } as SeatCommand, { op: "availability" } as SeatCommand).map((c) => (_ids: string[], _now: number) => c),
);
const partnerCommand = fc.oneof(
  fc.record({ op: fc.constantFrom("hold" as const, "sell" as const), orderId: rarely(fc.constantFrom("O1", "O2", "O3"), fc.constant("")), channel, ttl: expiry, holdId: ownId }).map(
    (r) => (_ids: string[], now: number) => ({ op: r.op, orderId: r.orderId, channel: r.channel, expiresAt: now + r.ttl, holdId: r.holdId }) as PartnerCommand,
  ),
  fc.record({ op: fc.constantFrom("confirm" as const, "release" as const), ref: holdRef }).map((r) => (ids: string[], _now: number) => ({ op: r.op, holdId: r.ref(ids) }) as PartnerCommand),
  fc.constantFrom({ op: "expire" } as PartnerCommand, { op: "stock" } as PartnerCommand).map((c) => (_ids: string[], _now: number) => c),
);

/** Steps whose command is built when it runs (an expiry relative to the clock, an id issued before). */
function sequences<C>(command: fc.Arbitrary<(ids: string[], now: number) => C>) {
  return fc.array(fc.record({ command, advance }), { minLength: 5, maxLength: 60, size: "max" });
}

const RUNS = 1_000;

/** Runs RUNS random sequences from each starting value through the old copy and the shared shape. */
function differential<V, C>(starts: V[], command: fc.Arbitrary<(ids: string[], now: number) => C>, before: Step<V, C>, after: Step<V, C>): void {
  const tally = { refused: 0, recorded: 0, answered: 0 };
  let commands = 0;
  fc.assert(
    fc.property(fc.constantFrom(...starts), sequences(command), (start, steps) => {
      commands += steps.length;
      expect(compare(start, steps, before, after, tally)).toBeNull();
    }),
    { numRuns: RUNS, seed: 8_011 },
  );
  expect(commands).toBeGreaterThan(RUNS * 20);
  // Refusals, commands that record events and answers from the record all occur, each often.
  for (const n of Object.values(tally)) expect(n).toBeGreaterThan(RUNS);
  console.log(JSON.stringify({ commands, ...tally }));
}

test.skipIf(!haveBefore)("seat stock: the shared shape decides every command as the seat actor's own copy did", async () => {
  const old = (await import(join(oldDir, "seats/decide.ts"))) as { decideSeats: (v: SeatInventoryValue, c: SeatCommand, now: number, id: () => string) => { events: SeatEvent[]; reply: unknown } };
  const oldState = (await import(join(oldDir, "seats/state.ts"))) as { evolveSeats: (v: SeatInventoryValue, e: SeatEvent) => SeatInventoryValue };
  differential<SeatInventoryValue, SeatCommand>(
    [
      { flightKey: "XB-1-2026-11-22", seatIds: ["1A", "1B", "1C", "2A"], occupied: ["2A"], holds: {}, claims: {} },
      { flightKey: "XB-9-2026-11-22", seatIds: null, occupied: [], holds: {}, claims: {} },
    ],
    seatCommand,
    run(old.decideSeats, oldState.evolveSeats),
    run((v, c, now, id) => decideHoldable(SEAT_STOCK, v, c, now, id), (v, e: SeatEvent) => evolveHoldable(SEAT_STOCK, v, e)),
  );
});

test.skipIf(!haveBefore)("partner stock: the shared shape decides every command as the partner actor's own copy did", async () => {
  const old = (await import(join(oldDir, "partners/decide.ts"))) as { decidePartner: (v: PartnerStockValue, c: PartnerCommand, now: number, id: () => string) => { events: PartnerEvent[]; reply: unknown } };
  const oldState = (await import(join(oldDir, "partners/state.ts"))) as { evolvePartner: (v: PartnerStockValue, e: PartnerEvent) => PartnerStockValue };
  differential<PartnerStockValue, PartnerCommand>(
    [
      { productCode: "PP-TEST-2", stock: 2, holds: {}, units: {}, orders: {} },
      { productCode: "PP-NONE", stock: null, holds: {}, units: {}, orders: {} },
    ],
    partnerCommand,
    run(old.decidePartner, oldState.evolvePartner),
    run((v, c, now, id) => decideHoldable(PARTNER_STOCK, v, c, now, id), (v, e: PartnerEvent) => evolveHoldable(PARTNER_STOCK, v, e)),
  );
});
