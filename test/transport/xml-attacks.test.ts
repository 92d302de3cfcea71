import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest, MSG_NS } from "../support/requests";

// Transport is tested up to the handler boundary: no business handlers, so every message answers 501.
const NO_HANDLERS = new Map();

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({}, undefined, NO_HANDLERS);
});
afterAll(() => t.close());

const inner = ndcRequest("AirShoppingRQ").replace(/^<\?xml[^>]*>\n/, "");

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE IATA_AirShoppingRQ [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
${inner.replace("<Request></Request>", "<Request>&lol9;</Request>")}`;

const XXE = `<?xml version="1.0"?>
<!DOCTYPE r [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
${inner.replace("<Request></Request>", "<Request>&xxe;</Request>")}`;

const QUADRATIC = (() => {
  const big = "A".repeat(50_000);
  return `<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY a "${big}">]>\n${inner.replace("<Request></Request>", `<Request>${"&a;".repeat(30_000)}</Request>`)}`;
})();

const PARAMETER_ENTITY = `<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY % ext SYSTEM "http://127.0.0.1:1/evil.dtd"> %ext;]>\n${inner}`;
const LOWERCASE_SPACED = `<?xml version="1.0"?>\n<! doctype r>\n${inner}`;

async function timed(body: string | Uint8Array, headers: Record<string, string> = {}) {
  const t0 = performance.now();
  const r = await t.ndc("AirShoppingRQ", body, { headers });
  return { ...r, ms: performance.now() - t0 };
}

/**
 * The gateway's own time to answer, read in full: t.ndc also runs xmllint on the answer (a
 * process start, tens of ms on a busy machine), which says nothing about the refusal.
 */
async function answerMs(body: string | Uint8Array): Promise<number> {
  const headers = { "content-type": "application/xml", "iata-message-name": "IATA_AirShoppingRQ", "x-api-key": t.gw.sandbox!.api_key };
  const t0 = performance.now();
  const res = await t.fetch("/24.4/AirShoppingRQ", { method: "POST", headers, body: body as BodyInit });
  await res.arrayBuffer();
  return performance.now() - t0;
}

describe("XML attacks are refused before parsing (spec 4.1, DESIGN 5)", () => {
  const cases: [string, string][] = [
    ["billion laughs", BILLION_LAUGHS],
    ["external entity (XXE)", XXE],
    ["quadratic blow-up", QUADRATIC],
    ["parameter entity to a remote DTD", PARAMETER_ENTITY],
    ["a DOCTYPE in odd case and spacing", LOWERCASE_SPACED],
  ];
  for (const [name, body] of cases) {
    test(`${name}: 400 xml_forbidden_construct in well under 100 ms`, async () => {
      // The answer itself, checked against the XSD; this call also warms the path.
      const r = await timed(body);
      expect(r.status).toBe(400);
      expect(errorCode(r.body)).toBe("xml_forbidden_construct");
      // Best of three: the machine is shared, and one slow scheduling slice says nothing about the parser.
      const runs = [await answerMs(body), await answerMs(body), await answerMs(body)];
      expect(Math.min(...runs)).toBeLessThan(100);
      expect(r.body).not.toContain("root:");
    });
  }
});

describe("malformed and oversized XML", () => {
  const cases: [string, string, number, string][] = [
    ["unclosed element", inner.replace("</IATA_AirShoppingRQ>", ""), 400, "xml_malformed"],
    ["mismatched tags", inner.replace("</Request>", "</Reqest>"), 400, "xml_malformed"],
    ["undeclared prefix", inner.replace("<Request>", "<x:Request>").replace("</Request>", "</x:Request>"), 400, "xml_malformed"],
    ["text after the root", `${inner}trailing`, 400, "xml_malformed"],
    ["two roots", `${inner}${inner}`, 400, "xml_malformed"],
    ["empty body", "", 400, "xml_malformed"],
    ["not XML at all", '{"json":true}', 400, "xml_malformed"],
    [
      "nesting deeper than MAX_XML_DEPTH",
      inner.replace("<Request></Request>", `<Request>${"<cns:X>".repeat(100)}${"</cns:X>".repeat(100)}</Request>`),
      400,
      "xml_limit_exceeded",
    ],
    [
      "more elements than MAX_XML_ELEMENTS",
      inner.replace("<Request></Request>", `<Request>${"<cns:X/>".repeat(60_000)}</Request>`),
      400,
      "xml_limit_exceeded",
    ],
  ];
  for (const [name, body, status, code] of cases) {
    test(`${name}: ${status} ${code}`, async () => {
      const r = await timed(body);
      expect(r.status).toBe(status);
      expect(errorCode(r.body)).toBe(code);
      expect(r.body).not.toMatch(/at .*\.(ts|js):\d+/); // no stack trace
    });
  }

  test("invalid UTF-8 is 400 xml_malformed", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(inner.slice(0, 60)), 0xff, 0xfe, ...new TextEncoder().encode(inner.slice(60))]);
    const r = await timed(bytes);
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("xml_malformed");
  });

  test("a body over MAX_BODY_BYTES is 413 payload_too_large", async () => {
    const r = await timed(inner.replace("<Request></Request>", `<Request>${" ".repeat(3 * 1024 * 1024)}</Request>`));
    expect(r.status).toBe(413);
    expect(errorCode(r.body)).toBe("payload_too_large");
  });

  test("a streamed body over the limit without Content-Length is cut off with 413", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent++ > 100) return c.close(); // 6.4 MB if nobody stops reading
        c.enqueue(chunk);
      },
    });
    const res = await t.gw.app.handle(
      new Request("http://localhost/24.4/AirShoppingRQ", {
        method: "POST",
        headers: { "content-type": "application/xml", "iata-message-name": "IATA_AirShoppingRQ", "x-api-key": t.gw.sandbox!.api_key },
        body: stream,
      }),
    );
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(100);
  });
});

describe("gzip request bodies are inflated within a cap (spec 4.1)", () => {
  test("1.7 KB that inflates to 1 GB (two gzip layers) is 413 quickly, in bounded memory", async () => {
    const bomb = readFileSync(join(import.meta.dir, "../fixtures/gzip-bomb-1gb.gz.gz"));
    expect(bomb.byteLength).toBeLessThan(2048);
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    const r = await timed(bomb, { "content-encoding": "gzip, gzip" });
    const grown = process.memoryUsage().rss - before;
    expect(r.status).toBe(413);
    expect(errorCode(r.body)).toBe("payload_too_large");
    expect(r.ms).toBeLessThan(1000);
    expect(grown).toBeLessThan(200 * 1024 * 1024);
  });

  test("one gzip layer inflating past MAX_INFLATED_BYTES is 413", async () => {
    const body = gzipSync(inner.replace("<Request></Request>", `<Request>${" ".repeat(20 * 1024 * 1024)}</Request>`));
    expect(body.byteLength).toBeLessThan(100 * 1024);
    const r = await timed(body, { "content-encoding": "gzip" });
    expect(r.status).toBe(413);
  });

  test("a gzip body within the cap but holding a DOCTYPE is still refused", async () => {
    const r = await timed(gzipSync(BILLION_LAUGHS), { "content-encoding": "gzip" });
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("xml_forbidden_construct");
  });
});

test("comments, CDATA and foreign elements inside AugmentationPoint are fine", async () => {
  // AugmentationPoint is the root's first child in every 24.4 request XSD.
  const body = inner.replace(
    "<DistributionChain>",
    `<!-- a seller comment --><AugmentationPoint><v:Ext xmlns:v="urn:vendor"><![CDATA[<raw>]]></v:Ext></AugmentationPoint><DistributionChain>`,
  );
  const r = await timed(body);
  expect(r.status).toBe(501);
  expect(body).toContain(MSG_NS);
});
