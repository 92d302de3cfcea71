import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MESSAGES } from "@ndc/messages";
import { parseXml, rootFormOf, type XmlElement } from "@ndc/xml";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { CNS_NS, MSG_NS } from "../support/requests";
import { SCHEMA_DIR, validateXml } from "../support/xsd";

/**
 * Each request root is read in its own 24.4 XSD's form (docs/decisions/0012-root-forms.md).
 * The forms table is compared here with the XSD files themselves, and every served root, written
 * from its XSD (not from the table), is sent over HTTP and must pass the envelope. Without IATA's
 * schemas (test/support/xsd.ts says where it looked) there is nothing to compare: skipped.
 */
const NDC_MESSAGES = MESSAGES.filter((m) => m.response.family === "ndc");

interface XsdChild {
  name: string;
  required: boolean;
  repeats: boolean;
}

/** The root element's sequence in IATA_<Message>.xsd, as declared. */
function xsdRootChildren(message: string): XsdChild[] {
  const xsd = parseXml(readFileSync(join(SCHEMA_DIR!, `IATA_${message}.xsd`), "utf8"), { maxDepth: 200, maxElements: 1_000_000 });
  const root = xsd.children.find((e) => e.name === "element" && e.attrs.name === `IATA_${message}`);
  if (!root) throw new Error(`no root element in IATA_${message}.xsd`);
  const sequence = root.children.find((e) => e.name === "complexType")!.children.find((e) => e.name === "sequence")!;
  return sequence.children
    .filter((e: XmlElement) => e.name === "element")
    .map((e) => ({ name: e.attrs.name!, required: (e.attrs.minOccurs ?? "1") !== "0", repeats: (e.attrs.maxOccurs ?? "1") !== "1" }));
}

const CHAIN = `<DistributionChain><cns:DistributionChainLink><cns:Ordinal>1</cns:Ordinal><cns:OrgRole>Carrier</cns:OrgRole><cns:ParticipatingOrg><cns:OrgID>XB</cns:OrgID></cns:ParticipatingOrg></cns:DistributionChainLink></DistributionChain>`;
const PAYLOAD_ATTRIBUTES = `<PayloadAttributes><cns:CorrelationID>forms-1</cns:CorrelationID><cns:VersionNumber>24.4</cns:VersionNumber></PayloadAttributes>`;

/** The smallest schema-valid root of a message, its required children written in its XSD's order (content left empty). */
function minimalRoot(message: string, extra: Partial<Record<string, string>> = {}): string {
  const parts = xsdRootChildren(message).map((c) => {
    if (c.name === "DistributionChain") return CHAIN;
    if (c.name === "PayloadAttributes") return PAYLOAD_ATTRIBUTES;
    if (extra[c.name] !== undefined) return extra[c.name]!;
    return c.required ? `<${c.name}/>` : "";
  });
  return `<IATA_${message} xmlns="${MSG_NS}" xmlns:cns="${CNS_NS}">${parts.join("")}</IATA_${message}>`;
}

/**
 * Valid against the message's XSD apart from the content element's own children (an empty
 * Request lacks what each message's Request type needs; that is the handler's business, not the
 * envelope's). Any other schema error counts.
 */
function rootValid(body: string, message: string): boolean {
  const v = validateXml(body, `IATA_${message}.xsd`);
  if (v.ok) return true;
  const errors = v.output.split("\n").filter((l) => l.includes("element") || l.includes("Element"));
  return errors.every((l) => /Element '\{[^}]+\}(Request|Payload)': Missing child element/.test(l));
}

describe.skipIf(SCHEMA_DIR === null)("the forms table is the XSDs' own root sequences", () => {
  for (const m of NDC_MESSAGES) {
    test(`${m.requestRoot}: children, order, required and repeats as in ${m.requestRoot}.xsd`, () => {
      const form = rootFormOf(m.requestRoot);
      expect(form).toBeDefined();
      expect(form!.children.map((c) => ({ name: c.name, required: c.required, repeats: c.repeats === true }))).toEqual(xsdRootChildren(m.name));
      // The content element is a required child of the root.
      expect(form!.children.find((c) => c.name === form!.content)?.required).toBe(true);
    });
  }

  test("IATA_PaymentClearanceRQ (2022.1) has its own form, its XSD's: Clearance repeated, ClearanceCount, no DistributionChain", () => {
    const form = rootFormOf("IATA_PaymentClearanceRQ")!;
    expect(form.children.map((c) => ({ name: c.name, required: c.required, repeats: c.repeats === true }))).toEqual(xsdRootChildren("PaymentClearanceRQ"));
    expect(form.content).toBe("Clearance");
  });

  test("OrderQuoteRQ's content is Payload, before PayloadAttributes; the others carry Request", () => {
    expect(rootFormOf("IATA_OrderQuoteRQ")!.content).toBe("Payload");
    expect(rootFormOf("IATA_OrderQuoteRQ")!.children.map((c) => c.name)).toEqual(["AugmentationPoint", "DistributionChain", "Payload", "PayloadAttributes", "POS"]);
    for (const m of NDC_MESSAGES.filter((m) => m.name !== "OrderQuoteRQ")) expect(rootFormOf(m.requestRoot)!.content).toBe("Request");
  });
});

// The envelope is tested up to the handler boundary: no business handlers, so a read envelope answers 501.
let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({}, undefined, new Map());
});
afterAll(() => t.close());

describe.skipIf(SCHEMA_DIR === null)("every served root, written from its XSD, passes the envelope", () => {
  for (const m of NDC_MESSAGES) {
    test(`${m.requestRoot} in its schema-valid form reaches its handler (501, not request_invalid)`, async () => {
      const body = minimalRoot(m.name);
      // The document is valid against the message's own XSD before it is sent.
      expect(rootValid(body, m.name)).toBe(true);
      const r = await t.ndc(m.name, body);
      expect(errorCode(r.body)).toBe("message_not_available");
      expect(r.status).toBe(501);
      expect(r.body).toContain("<cns:CorrelationID>forms-1</cns:CorrelationID>");
    });
  }
});

describe.skipIf(SCHEMA_DIR === null)("OrderQuoteRQ (Payload) and roots out of their XSD's form", () => {
  test("a schema-valid OrderQuoteRQ with Payload is no longer refused as missing Request", async () => {
    const r = await t.ndc("OrderQuoteRQ", minimalRoot("OrderQuoteRQ"));
    expect(r.body).not.toContain("The Request element is required");
    expect(errorCode(r.body)).toBe("message_not_available");
  });

  test("OrderQuoteRQ with Request in place of Payload is refused naming Request (it is not in its XSD)", async () => {
    const body = minimalRoot("OrderQuoteRQ").replace("<Payload/>", "").replace("</IATA_OrderQuoteRQ>", "<Request/></IATA_OrderQuoteRQ>");
    expect(rootValid(body, "OrderQuoteRQ")).toBe(false);
    const r = await t.ndc("OrderQuoteRQ", body);
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("request_invalid");
    expect(r.body).toContain("<cns:TagText>Request</cns:TagText>");
  });

  test("OrderQuoteRQ without Payload is refused naming Payload", async () => {
    const r = await t.ndc("OrderQuoteRQ", minimalRoot("OrderQuoteRQ").replace("<Payload/>", ""));
    expect(r.status).toBe(400);
    expect(errorCode(r.body)).toBe("request_invalid");
    expect(r.body).toContain("The Payload element is required.");
  });

  const refused: [string, string, string, string][] = [
    ["PayloadAttributes before DistributionChain", "OrderRetrieveRQ", "swap", "DistributionChain"],
    ["Request twice", "OrderRulesRQ", "<Request/><Request/>", "Request"],
    ["a POS on ServiceDeliveryRQ (its XSD has none)", "ServiceDeliveryRQ", "<POS/><Request/>", "POS"],
    ["a Payload on OrderRetrieveRQ", "OrderRetrieveRQ", "<Request/><Payload/>", "Payload"],
  ];
  for (const [what, message, edit, element] of refused) {
    test(`${what}: 400 request_invalid naming ${element}`, async () => {
      let body = minimalRoot(message);
      body =
        edit === "swap"
          ? body.replace(CHAIN + PAYLOAD_ATTRIBUTES, PAYLOAD_ATTRIBUTES + CHAIN)
          : body.replace("<Request/>", edit);
      expect(rootValid(body, message)).toBe(false);
      const r = await t.ndc(message, body);
      expect(r.status).toBe(400);
      expect(errorCode(r.body)).toBe("request_invalid");
      expect(r.body).toContain(`<cns:TagText>${element}</cns:TagText>`);
    });
  }

  test("an enveloped ds:Signature after Request is read on OrderCreateRQ, refused on OrderRetrieveRQ", async () => {
    const sig = `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/>`;
    const create = await t.ndc("OrderCreateRQ", minimalRoot("OrderCreateRQ").replace("<Request/>", `<Request/>${sig}`));
    expect(errorCode(create.body)).toBe("message_not_available");
    const retrieve = await t.ndc("OrderRetrieveRQ", minimalRoot("OrderRetrieveRQ").replace("<Request/>", `<Request/>${sig}`));
    expect(errorCode(retrieve.body)).toBe("request_invalid");
  });
});
