import { describe, expect, test } from "bun:test";
import { ByteWriter, c, cOpt, el, fragmentBytes, serialize, writeKept, writtenNode, type KeptBytes, type XNode } from "@ndc/xml";

/** The byte writer follows the tree serializer's rules exactly (packages/xml/src/byte-writer.ts). */
const viaTree = (n: XNode) => serialize(n).slice('<?xml version="1.0" encoding="UTF-8"?>\n'.length);
const utf8 = (s: string) => new TextEncoder().encode(s);

describe("ByteWriter writes the bytes of what the tree builder serialises", () => {
  test("empty elements self-close, an empty string does not, absent values self-close a leaf", () => {
    const w = new ByteWriter();
    w.start("a");
    w.start("cns:B");
    w.end("cns:B");
    w.leaf("cns:C", "");
    w.leaf("cns:D", undefined);
    w.opt("cns:E", "");
    w.opt("cns:F", 0);
    w.end("a");
    expect(w.string()).toBe(viaTree(el("a", null, c("B"), c("C", ""), c("D", undefined as never), cOpt("E", ""), cOpt("F", 0))));
  });

  test("text and attributes are escaped once, as the serializer escapes them; illegal characters dropped", () => {
    for (const s of ['x & <y> "q" \u0001\ttab\nline', "plain", "a>b", "\u0000\u000b\ufffe\uffffok", "Gepäck & Sitzplätze <€ 12>", "日本語テキスト", "emoji 😀 & more"]) {
      const w = new ByteWriter();
      w.start("cns:A", { CurCode: s, skipped: undefined });
      w.leaf("cns:T", s);
      w.end("cns:A");
      const expected = viaTree(el("cns:A", { CurCode: s, skipped: undefined }, c("T", s)));
      expect(w.string()).toBe(expected);
      const b = new ByteWriter();
      b.start("cns:A", { CurCode: s });
      b.leaf("cns:T", s);
      b.end("cns:A");
      expect(b.bytes()).toEqual(utf8(viaTree(el("cns:A", { CurCode: s }, c("T", s)))));
    }
  });

  test("fragments are copied as bytes, ASCII or not, and tree nodes are walked in place", () => {
    const ascii = fragmentBytes((x) => x.leaf("cns:I", "1 < 2"));
    const accented = fragmentBytes((x) => x.leaf("cns:J", "Gepäck"));
    const w = new ByteWriter();
    w.start("r");
    w.raw(ascii);
    w.raw(ascii);
    w.raw(accented);
    w.node(c("N", c("M", 5), "", [null, c("E"), ["t & u"]], el("cns:P", { UnitCode: "Inches" }, 30)));
    w.node(writtenNode("cns:W", "<cns:W>kept</cns:W>"));
    w.raw("12.50");
    w.start("cns:Empty");
    w.raw(fragmentBytes(() => {}));
    w.end("cns:Empty");
    w.end("r");
    expect(w.string()).toBe(
      viaTree(el("r", null, c("I", "1 < 2"), c("I", "1 < 2"), c("J", "Gepäck"), c("N", c("M", 5), "", [null, c("E"), ["t & u"]], el("cns:P", { UnitCode: "Inches" }, 30)), writtenNode("cns:W", "<cns:W>kept</cns:W>"), "12.50", c("Empty"))),
    );
  });

  test("a fragment written while another writer is open does not disturb it (scratch buffers are a stack)", () => {
    const outer = new ByteWriter();
    outer.start("o");
    for (let i = 0; i < 50; i++) {
      const inner = fragmentBytes((x) => x.leaf("cns:I", `item ${i} `.repeat(200)));
      outer.raw(inner);
    }
    outer.end("o");
    const expected = viaTree(el("o", null, Array.from({ length: 50 }, (_, i) => c("I", `item ${i} `.repeat(200)))));
    expect(outer.string()).toBe(expected);
    // The buffer went back for reuse: the next answer starts clean.
    const next = new ByteWriter();
    next.leaf("x", 1);
    expect(next.string()).toBe("<x>1</x>");
  });

  test("finishing refuses an element left open", () => {
    const w = new ByteWriter();
    w.start("a");
    expect(() => w.string()).toThrow();
    w.start("b");
    w.leaf("c", 1);
    w.end("b");
    expect(() => w.bytes()).toThrow();
    w.end("a");
    expect(w.string()).toBe("<a><b><c>1</c></b></a>");
  });
});

describe("writeKept: the bytes of a frozen value are kept once it recurs", () => {
  test("a frozen value is written straight the first time, kept as bytes the second, copied after; an unfrozen one is written every time", () => {
    const kept: KeptBytes<{ v: string }> = new WeakMap();
    let writes = 0;
    const write = (w: ByteWriter, x: { v: string }) => {
      writes++;
      w.leaf("cns:V", x.v);
    };
    const frozen = Object.freeze({ v: "a & b" });
    const open = { v: "c" };
    const w = new ByteWriter();
    w.start("r");
    for (let i = 0; i < 5; i++) {
      writeKept(w, kept, frozen, write);
      writeKept(w, kept, open, write);
    }
    w.end("r");
    expect(writes).toBe(2 + 5);
    expect(w.string()).toBe(viaTree(el("r", null, [0, 1, 2, 3, 4].map(() => [c("V", "a & b"), c("V", "c")]))));
  });
});
