import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..");
const BUN = process.execPath;

/** Starts a bench server script and resolves with its URL once it prints LISTENING. */
export async function startServer(script: string, args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([BUN, script, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`${script} exited before listening`);
    buf += new TextDecoder().decode(value);
    const m = buf.match(/LISTENING (\S+)/);
    if (m) {
      // Keep draining so the server never blocks on a full pipe.
      (async () => {
        while (!(await reader.read()).done);
      })();
      return { url: m[1]!.replace(/\/$/, ""), stop: () => proc.kill() };
    }
  }
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  unexpected: number;
}

export async function runLoad(url: string, initFile: string, conns: number, secs: number, expected: number, rate?: number): Promise<LoadResult> {
  const proc = Bun.spawn([BUN, "bench/load.ts", url, initFile, String(conns), String(secs), String(expected), ...(rate ? [String(rate)] : [])], { cwd: ROOT, stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  return JSON.parse(out.trim().split("\n").pop()!);
}

export function fmt(r: LoadResult): string {
  return `${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2)} ms  p99 ${r.p99.toFixed(2)} ms  (${r.requests} requests, ${r.errors} errors, ${r.unexpected} unexpected status)`;
}

/** The q-quantile (0..1) of the samples, nearest rank from below: p99 is percentile(xs, 0.99). */
export function percentile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))]!;
}

/** The median of the rounds (the middle one, or the mean of the two middle ones): one noisy round moves no figure. */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
