/**
 * What the freshness check (docs/decisions/0040) costs a command: a resident journaled actor asks
 * whether its key moved (one prepared index seek on the reader connection) before every command,
 * unless the store's count of other connections' commits stood still. Measured in process on one
 * file store, queries and writes, three ways in alternating rounds: the read forced (a store view
 * without the counter, as with libSQL or while other processes write), the counter alone (one
 * process on its file), and the same kind declared single-process (no check at all).
 *
 *   node_modules/.bin/bun bench/actor-head.ts [queries=20000] [writes=2000] [rounds=3]
 *
 * Last line: {"bench":"actor-head","queryUs":..,"counterQueryUs":..,"queryBaselineUs":..,"readUs":..,"counterUs":..,"writeUs":..,"writeBaselineUs":..}
 * (medians of the rounds; readUs and counterUs: the query's cost over the baseline, forced read and counter alone).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ActorSystem, type ActorKind } from "@ndc/actors";
import { ManualClock } from "@ndc/clock";
import { migrate, openStore } from "@ndc/store";
import { counterKind, type CounterCommand } from "../test/fixtures/actor-counter";
import { median } from "./support";

const queries = Number(process.argv[2] ?? 20_000);
const writes = Number(process.argv[3] ?? 2_000);
const rounds = Number(process.argv[4] ?? 3);
const dir = mkdtempSync(join(tmpdir(), "actor-head-"));
const store = await openStore(`file:${join(dir, "gateway.db")}`, { driver: "bun-sqlite" });
await migrate(store);
const limits = { idleMs: 3_600_000, mailboxLimit: 100_000 };
const system = new ActorSystem({ store, clock: new ManualClock(), limits, sweepEveryMs: false });
const blind = new ActorSystem({ store: { ...store, othersCommitted: undefined }, clock: new ManualClock(), limits, sweepEveryMs: false });
const checked = blind.register(counterKind("bench.checked"));
const counted = system.register(counterKind("bench.counted"));
const { freshness: _f, ...rest } = counterKind("bench.trusted");
const trusted = system.register({ ...rest, singleProcess: true } as ActorKind<any, CounterCommand, any, any>);

type Ref = typeof checked;
async function perCall(ref: Ref, n: number, command: (i: number) => CounterCommand): Promise<number> {
  await ref.ask("k", { op: "read" });
  const t0 = performance.now();
  // One at a time: the latency one command pays, not a batch's.
  for (let i = 0; i < n; i++) await ref.ask("k", command(i));
  return ((performance.now() - t0) * 1000) / n;
}

const r = { q: [] as number[], qc: [] as number[], qb: [] as number[], w: [] as number[], wb: [] as number[] };
let id = 0;
for (let round = 0; round < rounds; round++) {
  r.qb.push(await perCall(trusted as Ref, queries, () => ({ op: "read" })));
  r.q.push(await perCall(checked, queries, () => ({ op: "read" })));
  r.qc.push(await perCall(counted, queries, () => ({ op: "read" })));
  r.wb.push(await perCall(trusted as Ref, writes, () => ({ op: "bump", id: `b${id++}` })));
  r.w.push(await perCall(checked, writes, () => ({ op: "bump", id: `c${id++}` })));
  console.log(JSON.stringify({ round, queryUs: r.q.at(-1), counterQueryUs: r.qc.at(-1), queryBaselineUs: r.qb.at(-1), writeUs: r.w.at(-1), writeBaselineUs: r.wb.at(-1) }));
}
const round2 = (x: number) => Math.round(x * 100) / 100;
const [q, qc, qb] = [median(r.q), median(r.qc), median(r.qb)];
console.log(
  JSON.stringify({ bench: "actor-head", queryUs: round2(q), counterQueryUs: round2(qc), queryBaselineUs: round2(qb), readUs: round2(q - qb), counterUs: round2(qc - qb), writeUs: round2(median(r.w)), writeBaselineUs: round2(median(r.wb)) }),
);
await blind.close();
await system.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
