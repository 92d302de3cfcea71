import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isGatewayError } from "@ndc/errors";
import { parseXml } from "@ndc/xml";
import { parseStrict, refuseDeclarations } from "../../packages/xml/src/parse";
import { readPlain } from "../../packages/xml/src/parse-plain";
import { ndcRequest } from "../support/requests";

/**
 * Differential test of the plain reader (packages/xml/src/parse-plain.ts) against the strict
 * parser (saxes): over the request fixtures, hand-written corner cases and thousands of seeded
 * random mutations of them, whenever the plain reader answers a tree, saxes accepts the document
 * and builds the same tree; and parseXml (plain first, saxes otherwise) answers exactly what
 * saxes alone answers: the same tree, or the same error code and message.
 */
const LIMITS = { maxDepth: 64, maxElements: 50_000 };
const TIGHT = { maxDepth: 4, maxElements: 12 };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith(".xml") ? [p] : [];
  });
}

const M = "http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage";
const handWritten = [
  `<a/>`,
  `<a></a>`,
  `<?xml version='1.0' encoding='utf-8'?><a x='1' y="2"/>`,
  `<?xml version="1.0"?>\n<a>\n\t<b>t</b>\n</a>\n`,
  `<a xmlns="${M}" xmlns:p="urn:p"><p:b><c xmlns="">x</c></p:b></a>`,
  `<p:a xmlns:p="urn:1"><p:b xmlns:p="urn:2"/><p:c/></p:a>`,
  `<a><b/><b></b ><b>1</b>tail</a>`,
  `<a>&amp;</a>`,
  `<a>&#65;</a>`,
  `<a><![CDATA[x]]></a>`,
  `<a><!-- c --></a>`,
  `<a><?pi x?></a>`,
  `<a>\r\n</a>`,
  `<a x="1" x="2"/>`,
  `<a p:x="1" xmlns:p="urn:p"/>`,
  `<a xmlns:p=""/>`,
  `<a xmlns:xml="urn:x"/>`,
  `<xml:a/>`,
  `<a xmlns:p="http://www.w3.org/2000/xmlns/"/>`,
  `<p:a/>`,
  `<a></b>`,
  `<a><b></a></b>`,
  `<a/><b/>`,
  `text<a/>`,
  `<a/>text`,
  `\uFEFF<a/>`,
  `<a x="<"/>`,
  `<a x="a\tb"/>`,
  `<a x="1"y="2"/>`,
  `<a>]]></a>`,
  `<a>\u0001</a>`,
  `<a>\uD800</a>`,
  `<a>é 🛫</a>`,
  `<a constructor="1" toString="2"/>`,
  `<constructor:a/>`,
  `<a __proto__="x"/>`,
  `<a.b-c_d e.f="1"/>`,
  `<1a/>`,
  `<a:b:c xmlns:a="urn:a"/>`,
  `<?xml version="1.1"?><a/>`,
  `<?xml version="1.0" standalone="yes"?><a/>`,
  ` <?xml version="1.0"?><a/>`,
  `<a xmlns=" urn:padded "/>`,
  `<a xmlns:p="urn:p " ><p:b/></a>`,
  `<a>${"<b>".repeat(70)}${"</b>".repeat(70)}</a>`,
  ``,
  `<`,
  `<a`,
  `<a>`,
];

const corpus = [
  ...files(join(import.meta.dir, "../fixtures/ndc")).map((p) => readFileSync(p, "utf8")),
  ndcRequest("AirShoppingRQ", { seller: "12345675", correlationId: "c-1", trxId: "t-1" }),
  ndcRequest("OrderRetrieveRQ", { request: "<cns:OrderFilterCriteria/>" }),
  ...handWritten,
];

const wellFormed = corpus.filter((x) => readPlain(x, LIMITS) !== undefined);

/** mulberry32: the same mutations on every run, so a failure reproduces. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = ["<", ">", "/", "&", '"', "'", "=", ":", "!", "?", "-", "[", "]", " ", "\t", "\n", "\r", "\u0000", "a", "1", "é", "\uD800", "_", ".", ";", "#", "x", "<a>", "</a>", "/>", 'p:', ' xmlns:p="urn:p"', ' b="1"'];

// Edits that keep a well-formed document well-formed, so equal trees are compared often, not only refusals.
const CONTENT = ["<z/>", "<cns:Z>t</cns:Z>", "<y k='v'>1</y>", " ", "\n", "\t", "é", "x", "🛫", ">", '<w xmlns="urn:w"><v/></w>', '<q:u xmlns:q="urn:q"/>', '<r xmlns=""/>'];
const ATTRIBUTES = [' k#="v"', " k#='v'", ' xmlns:q#="urn:q"', ' e#=""', " f#='>'", ' g#="é 🛫"', "\n h# = 'x' "];
let unique = 0;

/** Content right after a start tag, or an attribute inside one. */
function benign(s: string, rnd: () => number): string {
  for (let from = Math.floor(rnd() * s.length), tries = 0; tries < 20; tries++, from = Math.floor(rnd() * s.length)) {
    const gt = s.indexOf(">", from);
    if (gt === -1) continue;
    const lt = s.lastIndexOf("<", gt);
    if (lt === -1 || !/[A-Za-z_]/.test(s[lt + 1] ?? "")) continue; // an end tag, a declaration or text
    const selfClosing = s[gt - 1] === "/";
    if (!selfClosing && rnd() < 0.6) return s.slice(0, gt + 1) + CONTENT[Math.floor(rnd() * CONTENT.length)] + s.slice(gt + 1);
    const at = selfClosing ? gt - 1 : gt;
    return s.slice(0, at) + ATTRIBUTES[Math.floor(rnd() * ATTRIBUTES.length)]!.replace("#", String(unique++)) + s.slice(at);
  }
  return s;
}

function mutate(doc: string, rnd: () => number): string {
  let s = doc;
  const steps = 1 + Math.floor(rnd() * 3);
  for (let k = 0; k < steps; k++) {
    const at = Math.floor(rnd() * (s.length + 1));
    const pick = rnd();
    const char = () => ALPHABET[Math.floor(rnd() * ALPHABET.length)];
    if (pick < 0.45) s = benign(s, rnd);
    else if (pick < 0.5) s = s.replaceAll("cns:", "c2:");
    else if (pick < 0.6) s = s.slice(0, at) + s.slice(at + 1);
    else if (pick < 0.72) s = s.slice(0, at) + char() + s.slice(at);
    else if (pick < 0.8) s = s.slice(0, at) + char() + s.slice(at + 1);
    else if (pick < 0.9) {
      const from = Math.floor(rnd() * s.length);
      s = s.slice(0, at) + s.slice(from, from + 1 + Math.floor(rnd() * 24)) + s.slice(at);
    } else if (pick < 0.96) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(rnd() * 16));
    else s = s.slice(0, at);
  }
  return s;
}

type Outcome = { tree: string } | { error: string };

function outcome(fn: () => unknown): Outcome {
  try {
    return { tree: JSON.stringify(fn()) };
  } catch (e) {
    if (!isGatewayError(e)) throw e;
    return { error: `${e.code}: ${e.description}` };
  }
}

function strictOutcome(xml: string, limits: typeof LIMITS): Outcome {
  return outcome(() => {
    refuseDeclarations(xml);
    return parseStrict(xml, limits);
  });
}

describe("plain reader against saxes", () => {
  test("the fixtures are plain: the fast path is the common path", () => {
    const fixtures = files(join(import.meta.dir, "../fixtures/ndc")).map((p) => readFileSync(p, "utf8"));
    const plain = fixtures.filter((x) => readPlain(x, LIMITS) !== undefined);
    expect(fixtures.length).toBeGreaterThan(10);
    expect(plain.length).toBe(fixtures.length);
  });

  test("hand-written corner cases", () => {
    for (const xml of handWritten) {
      for (const limits of [LIMITS, TIGHT]) {
        const plain = readPlain(xml, limits);
        const strict = strictOutcome(xml, limits);
        if (plain !== undefined) expect([xml, strict]).toEqual([xml, { tree: JSON.stringify(plain) }]);
        expect([xml, outcome(() => parseXml(xml, limits))]).toEqual([xml, strict]);
      }
    }
  });

  test("8,000 seeded mutations of the corpus: a plain tree is always saxes' tree, and parseXml is always saxes' answer", () => {
    const rnd = prng(0x5eed);
    let plainTrees = 0;
    let rejected = 0;
    for (let i = 0; i < 8000; i++) {
      const base = corpus[Math.floor(rnd() * corpus.length)]!;
      // Half any edit (mostly refusals), half edits that keep most documents well-formed.
      const xml = i % 2 === 0 ? mutate(base, rnd) : benign(benign(wellFormed[i % wellFormed.length]!, rnd), rnd);
      const limits = i % 10 === 0 ? TIGHT : LIMITS;
      const plain = readPlain(xml, limits);
      const strict = strictOutcome(xml, limits);
      if ("error" in strict) rejected++;
      if (plain !== undefined) {
        plainTrees++;
        if (!("tree" in strict) || strict.tree !== JSON.stringify(plain)) expect({ xml, answer: JSON.stringify(plain) }).toEqual({ xml, answer: "tree" in strict ? strict.tree : strict.error });
      }
      const both = outcome(() => parseXml(xml, limits));
      if (JSON.stringify(both) !== JSON.stringify(strict)) expect({ xml, both }).toEqual({ xml, both: strict });
    }
    // Both sides must be exercised: mutations that stay plain, and malformed ones saxes refuses.
    console.log(plainTrees, rejected);
    expect(plainTrees).toBeGreaterThan(2500);
    expect(rejected).toBeGreaterThan(2500);
  }, 60_000); // 8,000 documents through both parsers: 3.7 s alone, beyond bun's 5 s default on a loaded machine
});
