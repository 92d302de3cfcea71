import { describe, expect, test } from "bun:test";
import { c, el, escapeAttr, escapeText, serialize } from "@ndc/xml";

/** The builder's fast paths (escape only when needed, one join) keep the exact output. */
const body = (x: ReturnType<typeof el>) => serialize(x).replace('<?xml version="1.0" encoding="UTF-8"?>\n', "");

describe("serialize", () => {
  test("self-closes only when nothing at all is written between the tags", () => {
    expect(body(el("a", null))).toBe("<a/>");
    expect(body(el("a", null, null, undefined, false, []))).toBe("<a/>");
    expect(body(el("a", null, [[null], []]))).toBe("<a/>");
    expect(body(el("a", null, ""))).toBe("<a></a>");
    expect(body(el("a", null, [[""]]))).toBe("<a></a>");
    expect(body(el("a", null, 0))).toBe("<a>0</a>");
  });

  test("attributes in insertion order, undefined ones left out, values escaped", () => {
    expect(body(el("a", { x: 1, y: undefined, z: 'q"<&>\n\r\t' }))).toBe('<a x="1" z="q&quot;&lt;&amp;&gt;&#10;&#13;&#9;"/>');
  });

  test("text escapes &, < and >, drops characters XML cannot carry, and is untouched otherwise", () => {
    expect(body(c("T", "a & b < c > d \"e\" 'f'"))).toBe("<cns:T>a &amp; b &lt; c &gt; d \"e\" 'f'</cns:T>");
    expect(escapeText("ok\u0001\u0008x\uFFFE\n\t")).toBe("okx\n\t");
    expect(escapeAttr("a\u001Fb")).toBe("ab");
    const plain = "SEG-XB-100-2027-01-12 Londres Heathrow 254.00";
    expect(escapeText(plain)).toBe(plain);
  });

  test("nested children and arrays keep document order", () => {
    expect(body(el("r", { xmlns: "urn:x" }, [c("A", "1"), [c("B", null), "t"]], c("C", c("D", 2))))).toBe('<r xmlns="urn:x"><cns:A>1</cns:A><cns:B/>t<cns:C><cns:D>2</cns:D></cns:C></r>');
  });
});
