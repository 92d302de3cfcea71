import { expect, test } from "bun:test";
import { ByteWriter, c, el, responseBody, responseDocument, serialize, writtenBytes, writtenNode, type ResponseRoot } from "@ndc/xml";

/**
 * A Response written straight to bytes (`writtenBytes`) is sent inside its envelope as bytes
 * (`responseBody`, the pipeline's body), with no decoding to text and encoding again: the bytes
 * must be exactly the UTF-8 of the text document the same Response gives through the tree path.
 */
const utf8 = new TextEncoder();
const root: ResponseRoot = { root: "IATA_AirShoppingRS", family: "ndc" };

function written(): { bytes: Uint8Array; text: string } {
  const w = new ByteWriter();
  w.start("Response");
  w.leaf("cns:DescText", "Gepäck & 手荷物 <20 kg> \u{1F9F3}");
  w.start("cns:Empty");
  w.end("cns:Empty");
  w.leaf("cns:Amount", 12.5);
  w.end("Response");
  const bytes = w.bytes();
  return { bytes, text: new TextDecoder().decode(bytes) };
}

const contexts = [
  { simulated: true, carrier: "XB" },
  { simulated: true, correlationId: "corr-ü & <x>", trxId: "trx-1", carrier: "XB" },
  { simulated: false },
];

test("the envelope around written bytes is the text document, byte for byte", () => {
  const { bytes, text } = written();
  for (const ctx of contexts) {
    for (const r of [root, { ...root, chainRequired: true }]) {
      const body = responseBody(r, writtenBytes("Response", bytes), ctx, c("Trailing", "é"), [el("gw:NextPage", { "xmlns:gw": "urn:x" }, "2")]);
      expect(body).toBeInstanceOf(Uint8Array);
      const expected = responseDocument(r, writtenNode("Response", text), ctx, c("Trailing", "é"), [el("gw:NextPage", { "xmlns:gw": "urn:x" }, "2")]);
      expect(Buffer.from(body as Uint8Array).equals(Buffer.from(utf8.encode(expected)))).toBe(true);
    }
  }
});

test("serialize still gives the text of a written-bytes node; a tree Response stays text", () => {
  const { bytes, text } = written();
  expect(serialize(el("r", null, writtenBytes("Response", bytes)))).toBe(serialize(el("r", null, writtenNode("Response", text))));
  const tree = el("Response", null, c("DescText", "x"));
  expect(responseBody(root, tree, contexts[0]!)).toBe(responseDocument(root, tree, contexts[0]!));
});

test("each body is its own buffer: a kept Response sent twice is not shared or overwritten", () => {
  const node = writtenBytes("Response", written().bytes);
  const a = responseBody(root, node, contexts[1]!) as Uint8Array;
  const b = responseBody(root, node, contexts[1]!) as Uint8Array;
  expect(a).not.toBe(b);
  expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
});
