export {};
// A closed-loop HTTP load generator: C connections, each sending the next request as soon as
// the previous answer is read, for a fixed time. Run as its own process so it never shares an
// event loop with the server it measures. Prints one JSON line: requests/s, p50, p99 (ms).
// usage: bun bench/load.ts <url> <requestInitJsonFile> <connections> <seconds> <expectedStatus> [ratePerSecond]
// With a rate it is open-loop instead: requests start on a fixed schedule whatever the answers do,
// and latency counts from the scheduled start (no coordinated omission); connections is then unused.
const [url, initFile, conns = "32", secs = "5", expected = "200", rate] = process.argv.slice(2);
const init = JSON.parse(await Bun.file(initFile!).text()) as { method: string; headers: Record<string, string>; body: string; bodies?: string[] };
// With `bodies`, each request sends the next one in turn (bench/air-shopping.ts's distinct searches);
// `reused` counts requests that had to start the list again.
let nextBody = 0;
let reused = 0;
const body = () => {
  if (!init.bodies) return init.body;
  if (nextBody >= init.bodies.length) reused++;
  return init.bodies[nextBody++ % init.bodies.length]!;
};
const deadline = performance.now() + Number(secs) * 1000;
const latencies: number[] = [];
let errors = 0;
let unexpected = 0;

async function worker() {
  while (performance.now() < deadline) {
    const t0 = performance.now();
    try {
      const r = await fetch(url!, { method: init.method, headers: init.headers, body: body(), keepalive: true });
      await r.arrayBuffer();
      if (r.status !== Number(expected)) unexpected++;
      latencies.push(performance.now() - t0);
    } catch {
      errors++;
    }
  }
}

async function openLoop(perSecond: number) {
  const t0 = performance.now();
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  while (performance.now() < deadline) {
    const due = Math.floor(((performance.now() - t0) * perSecond) / 1000);
    for (; sent < due; sent++) {
      const scheduled = t0 + (sent * 1000) / perSecond;
      const p = fetch(url!, { method: init.method, headers: init.headers, body: body(), keepalive: true })
        .then(async (r) => {
          await r.arrayBuffer();
          if (r.status !== Number(expected)) unexpected++;
          latencies.push(performance.now() - scheduled);
        })
        .catch(() => {
          errors++;
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Bun.sleep(1);
  }
  await Promise.all(inFlight);
}

const started = performance.now();
if (rate) await openLoop(Number(rate));
else await Promise.all(Array.from({ length: Number(conns) }, worker));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
console.log(JSON.stringify({ requests: latencies.length, rps: latencies.length / elapsed, p50: pct(0.5), p99: pct(0.99), errors, unexpected, ...(init.bodies ? { reused } : {}) }));
