// Authenticated NDC call answering an Error: an AirShoppingRQ with an empty Request, refused 400
// request_invalid by its decoder after token check, scope, rate limit, headers, body read, strict
// parse, envelope and DistributionChain checks; against a bare Bun.serve answering the same bytes.
// Rounds alternate between the two so both see the same machine noise; the ratio is what counts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fmt, runLoad, startServer, type LoadResult } from "./support";

const CONNS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

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
  const MSG = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage";
  const CNS = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersCommonTypes";
  const body = `<?xml version="1.0" encoding="UTF-8"?><IATA_AirShoppingRQ xmlns="${MSG}" xmlns:cns="${CNS}"><DistributionChain><cns:DistributionChainLink><cns:Ordinal>1</cns:Ordinal><cns:OrgRole>Seller</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>${creds.iata_number}</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink><cns:DistributionChainLink><cns:Ordinal>2</cns:Ordinal><cns:OrgRole>Carrier</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>XB</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink></DistributionChain><PayloadAttributes><cns:CorrelationID>bench-1</cns:CorrelationID></PayloadAttributes><Request/></IATA_AirShoppingRQ>`;
  const init = {
    method: "POST",
    headers: { authorization: `Bearer ${access_token}`, "iata-message-name": "IATA_AirShoppingRQ", "content-type": "application/xml" },
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
    const sum = (xs: LoadResult[]) => xs.reduce((s, x) => s + x.requests, 0);
    const ratio = sum(g) / sum(b);
    console.log(`\nauthenticated NDC Error answer: gateway/bare = ${(ratio * 100).toFixed(1)}% of the bare server's requests per second (${CONNS} connections, ${ROUNDS} x ${SECS} s each, same run)`);
  } finally {
    bare.stop();
  }
} finally {
  gw.stop();
  rmSync(dir, { recursive: true, force: true });
}
