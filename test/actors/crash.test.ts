import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openStore, type DriverName } from "@ndc/store";
import { tempDir } from "./helpers";

const WORKER = join(import.meta.dir, "../fixtures/actor-crash-worker.ts");
const KIND = "test.crash-counter";
const KEYS = ["k0", "k1", "k2", "k3"];
const KILL_AFTER_ACKS = 300;

/** Runs a load worker, SIGKILLs it after KILL_AFTER_ACKS acknowledgements, returns every ack it printed. */
async function loadAndKill(dataDir: string, tag: string, driver: DriverName): Promise<string[]> {
  const child = Bun.spawn([process.execPath, WORKER, "load", dataDir, tag], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, GATEWAY_DATABASE_DRIVER: driver },
  });
  const acks: string[] = [];
  let buffered = "";
  let killed = false;
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 15_000);
  const decoder = new TextDecoder();
  // Keep reading after the kill: lines already in the pipe were printed after their answer.
  for await (const chunk of child.stdout) {
    buffered += decoder.decode(chunk, { stream: true });
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) if (line && line !== "ready") acks.push(line);
    if (!killed && acks.length >= KILL_AFTER_ACKS) {
      killed = true;
      child.kill("SIGKILL");
    }
  }
  clearTimeout(watchdog);
  await child.exited;
  if (!killed) throw new Error(`worker ended before ${KILL_AFTER_ACKS} acks: ${await new Response(child.stderr).text()}`);
  expect(child.signalCode).toBe("SIGKILL");
  return acks; // a partial last line (no newline) is not an acknowledgement
}

async function verifyInFreshProcess(dataDir: string, tag: string, driver: DriverName): Promise<Record<string, { seq: number; total: number }>> {
  const child = Bun.spawn([process.execPath, WORKER, "verify", dataDir, tag], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, GATEWAY_DATABASE_DRIVER: driver },
  });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`verify worker failed (${code}): ${err}`);
  return JSON.parse(out.trim());
}

describe.each([
  ["bun-sqlite", 3],
  ["libsql", 2],
] as [DriverName, number][])("crash: SIGKILL mid-load on %s", (driver, cycles) => {
  const tmp = tempDir("ndc-crash-");
  afterAll(() => tmp.cleanup());

  test(`every acknowledged command survives ${cycles} kill/restart cycles exactly once`, async () => {
    const acked: string[] = [];
    for (let cycle = 1; cycle <= cycles; cycle++) {
      const acks = await loadAndKill(tmp.dir, `${driver}-c${cycle}`, driver);
      expect(acks.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
      acked.push(...acks);
      const verified = await verifyInFreshProcess(tmp.dir, `${driver}-c${cycle}`, driver);

      const store = await openStore(`file:${join(tmp.dir, "gateway.db")}`);
      try {
        const rows = (await store.db.all(
          sql`SELECT key, seq, json_extract(payload, '$.id') AS id, json_extract(payload, '$.by') AS by FROM actor_journal WHERE kind = ${KIND} ORDER BY key, seq`,
        )) as { key: string; seq: number; id: string; by: number }[];
        const times = new Map<string, number>();
        for (const r of rows) times.set(r.id, (times.get(r.id) ?? 0) + 1);
        // Each acknowledged id exactly once; no id (acknowledged or not) twice.
        const missing = acked.filter((id) => times.get(id) !== 1);
        expect(missing).toEqual([]);
        expect([...times.values()].every((n) => n === 1)).toBe(true);
        for (const key of KEYS) {
          const seqs = rows.filter((r) => r.key === key).map((r) => r.seq);
          // Contiguous from 1: no hole left by the kill, no fork after the restart.
          expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
          // The restarted process rehydrated exactly what is on disk, then continued.
          expect(verified[key]).toEqual({ seq: seqs.length, total: seqs.length });
        }
      } finally {
        await store.close();
      }
    }
  });
});
