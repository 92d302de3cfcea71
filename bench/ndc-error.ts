// Authenticated NDC call answering an Error: an AirShoppingRQ with an empty Request, refused 400
// request_invalid by its decoder after token check, scope, rate limit, headers, body read, strict
// parse, envelope and DistributionChain checks; against a bare Bun.serve answering the same bytes.
// Rounds alternate between the two so both see the same machine noise; the ratio is what counts.
// Options: BENCH_CONNECTIONS (32), BENCH_SECONDS (5), BENCH_ROUNDS (3), BENCH_ACCEPT_ENCODING.
// `bun bench/ndc-error.ts --in-process`: no sockets; µs per call through the edge (edgeFetch,
// which sends POST /24.4/<Name> straight to the pipeline), best of MICRO_ROUNDS rounds of MICRO_N calls. Run it under `bun --cpu-prof` for the
// profile docs/decisions/0008-per-call-floor.md reads.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, median, runLoad, startServer, type LoadResult } from "./support";

const MSG = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage";
const CNS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes";

/** The request: a valid envelope whose empty Request its decoder refuses (400 request_invalid). */
function requestBody(iataNumber: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><IATA_AirShoppingRQ xmlns="${MSG}" xmlns:cns="${CNS}"><DistributionChain><cns:DistributionChainLink><cns:Ordinal>1</cns:Ordinal><cns:OrgRole>Seller</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>${iataNumber}</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink><cns:DistributionChainLink><cns:Ordinal>2</cns:Ordinal><cns:OrgRole>Carrier</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>XB</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink></DistributionChain><PayloadAttributes><cns:CorrelationID>bench-1</cns:CorrelationID></PayloadAttributes><Request/></IATA_AirShoppingRQ>`;
}

if (process.argv[2] === "--in-process") {
  await inProcess();
  process.exit(0);
}

const CONNS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
// Bun's fetch sends Accept-Encoding: gzip unless told otherwise, and the gateway then gzips its
// answer while the bare server sends it as is. Identity (the default) makes both send the same
// bytes, as bench/air-shopping.ts does; BENCH_ACCEPT_ENCODING=gzip measures the gateway compressing.
const ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? "identity";

const dir = mkdtempSync(join(tmpdir(), "ndc-bench-"));
const gw = await startServer("bench/gateway-server.ts", [], {
  GATEWAY_DATA_DIR: dir,
  GATEWAY_MODE: "local",
  LOG_LEVEL: "info",
  RATE_LIMIT_SHOP_PER_MINUTE: "100000000",
  RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000",
});
try {
  const creds = JSON.parse(await Bun.file(join(dir, "sandbox-credentials.json")).text());
  const tok = await fetch(`${gw.url}/oauth/token`, {
    method: "POST",
    headers: { authorization: `Basic ${btoa(`${creds.client_id}:${creds.client_secret}`)}`, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
  const { access_token } = (await tok.json()) as { access_token: string };
  const body = requestBody(creds.iata_number);
  const init = {
    method: "POST",
    headers: { authorization: `Bearer ${access_token}`, "iata-message-name": "IATA_AirShoppingRQ", "content-type": "application/xml", "accept-encoding": ENCODING },
    body,
  };
  const initFile = join(dir, "init.json");
  writeFileSync(initFile, JSON.stringify(init));
  const sample = await fetch(`${gw.url}/24.4/AirShoppingRQ`, init);
  const sampleBody = await sample.text();
  if (sample.status !== 400 || !sampleBody.includes("request_invalid")) throw new Error(`unexpected gateway answer ${sample.status}: ${sampleBody}`);
  const bodyFile = join(dir, "answer.xml");
  writeFileSync(bodyFile, sampleBody);
  const bare = await startServer("bench/bare-server.ts", [bodyFile, "400"]);
  try {
    const g: LoadResult[] = [];
    const b: LoadResult[] = [];
    await runLoad(gw.url + "/24.4/AirShoppingRQ", initFile, CONNS, 1, 400); // warm-up
    await runLoad(bare.url + "/24.4/AirShoppingRQ", initFile, CONNS, 1, 400);
    for (let i = 0; i < ROUNDS; i++) {
      b.push(await runLoad(bare.url + "/24.4/AirShoppingRQ", initFile, CONNS, SECS, 400));
      g.push(await runLoad(gw.url + "/24.4/AirShoppingRQ", initFile, CONNS, SECS, 400));
      console.log(`round ${i + 1}\n  bare Bun.serve ${fmt(b[i]!)}\n  gateway        ${fmt(g[i]!)}`);
    }
    // Medians of the rounds (issue 8): one noisy round moves neither figure.
    const requestsPerSecond = median(g.map((r) => r.rps));
    const baselinePerSecond = median(b.map((r) => r.rps));
    const ratio = median(g.map((r, i) => r.rps / b[i]!.rps));
    console.log(`\nauthenticated NDC Error answer: gateway/bare = ${(ratio * 100).toFixed(1)}% of the bare server's requests per second (median of ${ROUNDS} rounds, ${CONNS} connections, ${SECS} s each, same run)`);
    console.log(JSON.stringify({ bench: "ndc-error", requestsPerSecond: Math.round(requestsPerSecond), baselinePerSecond: Math.round(baselinePerSecond), ratio: Number(ratio.toFixed(3)) }));
  } finally {
    bare.stop();
  }
} finally {
  gw.stop();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The same call in process, through the edge (edgeFetch), with the store on a file as
 * deployed and the request log written to a sink that keeps nothing (the cost of building the
 * line stays in; the pipe to a terminal does not).
 */
async function inProcess(): Promise<void> {
  const { loadConfig } = await import("@ndc/config");
  const { createLogger } = await import("@ndc/log");
  const { bootGateway } = await import("@ndc/gateway");
  const { edgeFetch } = await import("../apps/gateway/src/edge");
  const N = Number(process.env.MICRO_N ?? 20_000);
  const ROUNDS = Number(process.env.MICRO_ROUNDS ?? 3);
  const dir = mkdtempSync(join(tmpdir(), "ndc-bench-"));
  const config = loadConfig({
    ...process.env,
    GATEWAY_DATA_DIR: dir,
    GATEWAY_MODE: "local",
    RATE_LIMIT_SHOP_PER_MINUTE: "100000000",
    RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000",
  });
  const gw = await bootGateway({ config, logger: createLogger({ level: "info", sink: () => {} }) });
  try {
    const creds = gw.sandbox!;
    const fetch = edgeFetch(gw);
    const server = { requestIP: () => ({ address: "127.0.0.1", family: "IPv4", port: 1 }) } as unknown as Parameters<typeof fetch>[1];
    const tok = await gw.app.handle(
      new Request("http://127.0.0.1/oauth/token", {
        method: "POST",
        headers: { authorization: `Basic ${btoa(`${creds.client_id}:${creds.client_secret}`)}`, "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials",
      }),
    );
    const { access_token } = (await tok.json()) as { access_token: string };
    const body = requestBody(creds.iata_number);
    const headers = { authorization: `Bearer ${access_token}`, "iata-message-name": "IATA_AirShoppingRQ", "content-type": "application/xml" };
    const call = async () => {
      const res = await fetch(new Request("http://127.0.0.1:8080/24.4/AirShoppingRQ", { method: "POST", headers, body }), server);
      await res.arrayBuffer();
      return res.status;
    };
    const first = await call();
    if (first !== 400) throw new Error(`unexpected gateway answer ${first}`);
    let best = Infinity;
    for (let r = 0; r < ROUNDS; r++) {
      const t0 = performance.now();
      for (let i = 0; i < N; i++) await call();
      const us = ((performance.now() - t0) * 1000) / N;
      best = Math.min(best, us);
      console.log(`round ${r + 1}: ${us.toFixed(1)} µs per call (${N} calls)`);
    }
    console.log(`in process: best ${best.toFixed(1)} µs per authenticated NDC Error answer`);
  } finally {
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
