import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { gzipSync } from "node:zlib";
import { MESSAGES } from "@ndc/messages";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest, MSG_NS } from "../support/requests";

// Transport is tested up to the handler boundary: no business handlers, so every message answers 501.
const NO_HANDLERS = new Map();

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({}, undefined, NO_HANDLERS);
});
afterAll(() => t.close());

describe("routing by path and IATA-Message-Name (spec 4.1)", () => {
  for (const m of MESSAGES.filter((m) => m.response.family === "ndc")) {
    test(`${m.name} without a released handler answers 501 message_not_available in ${m.response.root}`, async () => {
      const r = await t.ndc(m.name, ndcRequest(m.name, { correlationId: "corr-1", trxId: "trx-1" }));
      expect(r.status).toBe(501);
      expect(r.body).toContain(`<${m.response.root} `);
      expect(errorCode(r.body)).toBe("message_not_available");
      expect(r.body).toContain("<cns:CorrelationID>corr-1</cns:CorrelationID>");
      expect(r.body).toContain("<cns:LangCode>EN</cns:LangCode>");
      expect(r.headers.get("x-simulated-supply")).toBe("true");
    });
  }

  test("PaymentClearanceRQ answers in the 2022.1 clearance namespace", async () => {
    const ns = "http://www.iata.org/IATA/2015/00/2022.1/IATA_PaymentClearanceRQ";
    const body = `<IATA_PaymentClearanceRQ xmlns="${ns}" xmlns:cns="http://www.iata.org/IATA/2015/00/2022.1/IATA_PaymentClearanceCommonTypes"><DistributionChain><cns:DistributionChainLink><cns:Ordinal>1</cns:Ordinal><cns:OrgRole>Carrier</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>XB</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink></DistributionChain><Request/></IATA_PaymentClearanceRQ>`;
    const r = await t.ndc("PaymentClearanceRQ", body);
    expect(r.body).toContain("<IATA_PaymentClearanceRS ");
    expect(r.body).toContain("<cns:EchoTokenText>simulated-supply</cns:EchoTokenText>");
  });

  test("an unknown message is 404 with an IATA_Acknowledgement", async () => {
    const r = await t.ndc("FlyMeToTheMoonRQ", ndcRequest("AirShoppingRQ"));
    expect(r.status).toBe(404);
    expect(r.body).toContain("<IATA_Acknowledgement ");
    expect(errorCode(r.body)).toBe("message_unknown");
  });

  test("other methods are 405 with Allow: POST", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const r = await t.ndc("AirShoppingRQ", "", { method });
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("POST");
      expect(errorCode(r.body)).toBe("method_not_allowed");
      expect(r.body).toContain("<IATA_AirShoppingRS ");
    }
  });

  const headerCases: [string, Record<string, string>, number, string][] = [
    ["missing IATA-Message-Name", { "iata-message-name": "" }, 400, "message_name_mismatch"],
    ["IATA-Message-Name of another message", { "iata-message-name": "IATA_OrderCreateRQ" }, 400, "message_name_mismatch"],
    ["IATA-Message-Name without the IATA_ prefix", { "iata-message-name": "AirShoppingRQ" }, 400, "message_name_mismatch"],
    ["Content-Type text/xml", { "content-type": "text/xml" }, 415, "unsupported_media_type"],
    ["Content-Type application/json", { "content-type": "application/json" }, 415, "unsupported_media_type"],
    ["Content-Type with a charset", { "content-type": "application/xml; charset=utf-8" }, 501, "message_not_available"],
    ["Content-Encoding br", { "content-encoding": "br" }, 415, "content_encoding_unsupported"],
  ];
  for (const [name, headers, status, code] of headerCases) {
    test(name, async () => {
      const h = new Headers({
        "content-type": "application/xml",
        "iata-message-name": "IATA_AirShoppingRQ",
        "x-api-key": t.gw.sandbox!.api_key,
      });
      // An empty value in the table means: leave the header out.
      for (const [k, v] of Object.entries(headers)) v ? h.set(k, v) : h.delete(k);
      const r = await t.gw.app.handle(
        new Request("http://localhost/24.4/AirShoppingRQ", { method: "POST", headers: h, body: ndcRequest("AirShoppingRQ") }),
      );
      const body = await r.text();
      expect(r.status).toBe(status);
      expect(errorCode(body)).toBe(code);
      expect(r.headers.get("content-type")).toStartWith("application/xml");
      (await import("../support/xsd")).assertSchemaValid(body);
    });
  }

  test("the header mismatch names both names", async () => {
    const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ"), { headers: { "iata-message-name": "IATA_OrderCreateRQ" } });
    expect(r.body).toContain("IATA_AirShoppingRQ");
    expect(r.body).toContain("IATA_OrderCreateRQ");
  });
});

describe("envelope", () => {
  test("wrong root element is 400 root_element_invalid in the path's paired root", async () => {
    const r = await t.ndc("AirShoppingRQ", ndcRequest("OrderCreateRQ"));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("root_element_invalid");
    expect(r.body).toContain("<IATA_AirShoppingRS ");
  });

  test("wrong namespace is 400 namespace_invalid", async () => {
    const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ").replace(`xmlns="${MSG_NS}"`, 'xmlns="urn:not-ndc"'));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("namespace_invalid");
  });

  test("no namespace at all is 400 namespace_invalid", async () => {
    const r = await t.ndc("AirShoppingRQ", "<IATA_AirShoppingRQ><Request/></IATA_AirShoppingRQ>");
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("namespace_invalid");
  });

  test("missing DistributionChain is 400 distribution_chain_invalid naming the element", async () => {
    const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ", { omitChain: true }));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("distribution_chain_invalid");
    expect(r.body).toContain("<cns:TagText>DistributionChain</cns:TagText>");
  });

  test("missing Request is 400 request_invalid", async () => {
    const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ", { omitRequest: true }));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("request_invalid");
    expect(r.body).toContain("<cns:TagText>Request</cns:TagText>");
  });

  test("a CorrelationID that is not a short token is refused, not echoed", async () => {
    const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ", { correlationId: "x".repeat(200) }));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("request_invalid");
    expect(r.body).not.toContain("x".repeat(100));
  });

  test("prefixed message namespace is read the same as the default namespace", async () => {
    const body = ndcRequest("AirShoppingRQ", { correlationId: "pfx" })
      .replace(`xmlns="${MSG_NS}"`, `xmlns:m="${MSG_NS}"`)
      .replace(/<(\/?)(IATA_AirShoppingRQ|DistributionChain|PayloadAttributes|Request)([ >/])/g, "<$1m:$2$3");
    const r = await t.ndc("AirShoppingRQ", body);
    expect(r.status).toBe(501);
    expect(r.body).toContain("<cns:CorrelationID>pfx</cns:CorrelationID>");
  });
});

describe("compression", () => {
  test("Accept-Encoding gzip gives a gzip response that inflates to a valid document", async () => {
    const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ"), { headers: { "accept-encoding": "gzip" } });
    expect(r.headers.get("content-encoding")).toBe("gzip");
    expect(errorCode(r.body)).toBe("message_not_available");
  });

  test("Accept-Encoding gzip;q=0 is not gzip", async () => {
    const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ"), { headers: { "accept-encoding": "gzip;q=0" } });
    expect(r.headers.get("content-encoding")).toBeNull();
  });

  test("a gzip request body is accepted", async () => {
    const r = await t.ndc("AirShoppingRQ", gzipSync(ndcRequest("AirShoppingRQ", { correlationId: "gz" })), {
      headers: { "content-encoding": "gzip" },
    });
    expect(r.status).toBe(501);
    expect(r.body).toContain("<cns:CorrelationID>gz</cns:CorrelationID>");
  });

  test("a body that is not gzip under Content-Encoding gzip is 400 content_encoding_invalid", async () => {
    const r = await t.ndc("AirShoppingRQ", ndcRequest("AirShoppingRQ"), { headers: { "content-encoding": "gzip" } });
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("content_encoding_invalid");
  });

  test("request gzip can be switched off (REQUEST_GZIP=false) and the discovery document says so", async () => {
    const off = await startTestGateway({ REQUEST_GZIP: "false" }, undefined, NO_HANDLERS);
    try {
      const r = await off.ndc("AirShoppingRQ", gzipSync(ndcRequest("AirShoppingRQ")), { headers: { "content-encoding": "gzip" } });
      expect(r.status).toBe(415);
      const doc = (await (await off.fetch("/24.4")).json()) as { requestCompression: { gzip: boolean } };
      expect(doc.requestCompression.gzip).toBe(false);
    } finally {
      await off.close();
    }
  });
});
