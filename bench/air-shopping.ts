// AirShoppingRQ, return trip, 2 adults and 1 child, ServiceCriteria on (about 50 offers, the first
// NDC_SHOP_SERVICES_MAX_OFFERS with their a-la-carte services), against a bare Bun.serve answering
// the same response bytes. Closed-loop rounds alternate between the two (same machine noise), then
// an open-loop run at half the bare server's rate gives the gateway's p99 at that rate.
// Targets (issue 3): gateway >= 40% of bare requests/s; p99 < 50 ms at half that rate.
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
  LOG_LEVEL: "warn",
  RATE_LIMIT_SHOP_PER_MINUTE: "100000000",
  RATE_LIMIT_DEFAULT_PER_MINUTE: "100000000",
});
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
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
  const leg = (from: string, to: string, date: string, id: string) =>
    `<cns:OriginDestCriteria><cns:DestArrivalCriteria><cns:IATA_LocationCode>${to}</cns:IATA_LocationCode></cns:DestArrivalCriteria><cns:OriginDepCriteria><cns:Date>${date}</cns:Date><cns:IATA_LocationCode>${from}</cns:IATA_LocationCode></cns:OriginDepCriteria><cns:OriginDestID>${id}</cns:OriginDestID></cns:OriginDestCriteria>`;
  const pax = [["PAX1", "ADT"], ["PAX2", "ADT"], ["PAX3", "CHD"]].map(([id, ptc]) => `<cns:Pax><cns:PaxID>${id}</cns:PaxID><cns:PTC>${ptc}</cns:PTC></cns:Pax>`).join("");
  const body = `<?xml version="1.0" encoding="UTF-8"?><IATA_AirShoppingRQ xmlns="${MSG}" xmlns:cns="${CNS}"><DistributionChain><cns:DistributionChainLink><cns:Ordinal>1</cns:Ordinal><cns:OrgRole>Seller</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>${creds.iata_number}</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink><cns:DistributionChainLink><cns:Ordinal>2</cns:Ordinal><cns:OrgRole>Carrier</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>XB</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink></DistributionChain><PayloadAttributes><cns:CorrelationID>bench-shop-1</cns:CorrelationID></PayloadAttributes><Request><cns:FlightRequest><cns:FlightRequestOriginDestinationsCriteria>${leg("LHR", "FRA", day(30), "OD1")}${leg("FRA", "LHR", day(37), "OD2")}</cns:FlightRequestOriginDestinationsCriteria></cns:FlightRequest><cns:OfferCriteria><cns:ServiceCriteria><cns:RFIC>C</cns:RFIC></cns:ServiceCriteria><cns:ServiceCriteria><cns:TaxonomyCode>0300</cns:TaxonomyCode></cns:ServiceCriteria></cns:OfferCriteria><cns:PaxList>${pax}</cns:PaxList></Request></IATA_AirShoppingRQ>`;
  const init = {
    method: "POST",
    headers: { authorization: `Bearer ${access_token}`, "iata-message-name": "IATA_AirShoppingRQ", "content-type": "application/xml" },
    body,
  };
  const initFile = join(dir, "init.json");
  writeFileSync(initFile, JSON.stringify(init));
  const sample = await fetch(`${gw.url}/24.4/AirShoppingRQ`, init);
  const sampleBody = await sample.text();
  if (sample.status !== 200) throw new Error(`unexpected gateway answer ${sample.status}: ${sampleBody.slice(0, 2000)}`);
  const offers = sampleBody.match(/<cns:Offer>/g)?.length ?? 0;
  const alc = sampleBody.match(/<cns:ALaCarteOffer>/g)?.length ?? 0;
  console.log(`answer: ${offers} offers, ${alc} a-la-carte offers, ${sampleBody.length} bytes`);
  const bodyFile = join(dir, "answer.xml");
  writeFileSync(bodyFile, sampleBody);
  const bare = await startServer("bench/bare-server.ts", [bodyFile, "200"]);
  try {
    const g: LoadResult[] = [];
    const b: LoadResult[] = [];
    await runLoad(gw.url + "/24.4/AirShoppingRQ", initFile, CONNS, 1, 200); // warm-up
    await runLoad(bare.url + "/24.4/AirShoppingRQ", initFile, CONNS, 1, 200);
    for (let i = 0; i < ROUNDS; i++) {
      b.push(await runLoad(bare.url + "/24.4/AirShoppingRQ", initFile, CONNS, SECS, 200));
      g.push(await runLoad(gw.url + "/24.4/AirShoppingRQ", initFile, CONNS, SECS, 200));
      console.log(`round ${i + 1}\n  bare Bun.serve ${fmt(b[i]!)}\n  gateway        ${fmt(g[i]!)}`);
    }
    const sum = (xs: LoadResult[]) => xs.reduce((s, x) => s + x.requests, 0);
    const ratio = sum(g) / sum(b);
    const bareRps = b.reduce((s, x) => s + x.rps, 0) / b.length;
    const gwRps = g.reduce((s, x) => s + x.rps, 0) / g.length;
    console.log(`\nAirShopping: gateway/bare = ${(ratio * 100).toFixed(1)}% of the bare server's requests per second (${CONNS} connections, ${ROUNDS} x ${SECS} s each, same run; target >= 40%)`);
    // The issue's latency target is at half the rate the gateway is asked to reach (40% of bare);
    // also measured at half the gateway's own closed-loop rate.
    for (const [label, rate] of [["half of 40% of bare", Math.max(1, Math.round(bareRps * 0.2))], ["half the gateway's rate", Math.max(1, Math.round(gwRps / 2))]] as const) {
      const open = await runLoad(gw.url + "/24.4/AirShoppingRQ", initFile, CONNS, SECS, 200, rate);
      console.log(`open loop at ${rate} req/s (${label}): ${fmt(open)}; target p99 < 50 ms`);
    }
  } finally {
    bare.stop();
  }
} finally {
  gw.stop();
  rmSync(dir, { recursive: true, force: true });
}
