import { describe, expect, test } from "bun:test";
import { c, cOpt, el, fragment, serialize, XmlWriter } from "@ndc/xml";

/** The streaming writer follows the tree serializer's rules exactly (packages/xml/src/writer.ts). */
const viaTree = (n: Parameters<typeof serialize>[0]) => serialize(n).slice('<?xml version="1.0" encoding="UTF-8"?>\n'.length);

describe("XmlWriter writes what the tree builder serialises", () => {
  test("empty elements self-close, an empty string does not, absent values self-close a leaf", () => {
    const w = new XmlWriter();
    w.start("a");
    w.start("cns:B");
    w.end("cns:B");
    w.leaf("cns:C", "");
    w.leaf("cns:D", undefined);
    w.opt("cns:E", "");
    w.opt("cns:F", 0);
    w.end("a");
    expect(w.text()).toBe(viaTree(el("a", null, c("B"), c("C", ""), c("D", undefined as never), cOpt("E", ""), cOpt("F", 0))));
  });

  test("text and attributes are escaped once, as the serializer escapes them; illegal characters dropped", () => {
    const s = 'x & <y> "q" \u0001\ttab\nline';
    const w = new XmlWriter();
    w.start("cns:A", { CurCode: s, skipped: undefined });
    w.leaf("cns:T", s);
    w.end("cns:A");
    expect(w.text()).toBe(viaTree(el("cns:A", { CurCode: s, skipped: undefined }, c("T", s))));
  });

  test("raw fragments and tree nodes are copied in place", () => {
    const item = fragment((x) => x.leaf("cns:I", "1 < 2"));
    const w = new XmlWriter();
    w.start("r");
    w.raw(item);
    w.raw(item);
    w.node(c("N", c("M", 5)));
    w.end("r");
    expect(w.text()).toBe(viaTree(el("r", null, c("I", "1 < 2"), c("I", "1 < 2"), c("N", c("M", 5)))));
  });

  test("text() refuses an element left open", () => {
    const w = new XmlWriter();
    w.start("a");
    expect(() => w.text()).toThrow();
    w.start("b");
    w.leaf("c", 1);
    w.end("b");
    expect(() => w.text()).toThrow();
    w.end("a");
    expect(w.text()).toBe("<a><b><c>1</c></b></a>");
  });
});
