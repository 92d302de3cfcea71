/**
 * A small XML builder: nodes are plain objects serialised once at the end.
 * Names carry their prefix ("cns:Code"); roots declare the prefixes they use.
 */
export type Child = XNode | string | number | null | undefined | false | Child[];

export interface XNode {
  readonly name: string;
  readonly attrs?: Readonly<Record<string, string | number | undefined>>;
  readonly children: Child[];
}

export function el(name: string, attrs?: Record<string, string | number | undefined> | null, ...children: Child[]): XNode {
  return { name, attrs: attrs ?? undefined, children };
}

/** An element of the common-types namespace (prefix cns), the namespace of nearly all NDC content. */
export function c(name: string, ...children: Child[]): XNode {
  return { name: `cns:${name}`, children };
}

/** Like `c`, but omitted entirely when its value is absent, so optional elements stay optional. */
export function cOpt(name: string, value: string | number | undefined | null): XNode | null {
  return value === undefined || value === null || value === "" ? null : c(name, value);
}

const TEXT_ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const ATTR_ESC: Record<string, string> = { ...TEXT_ESC, '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;" };

// Characters XML 1.0 cannot carry at all; dropped rather than emitted as an invalid document.
const ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

export function escapeText(s: string): string {
  return s.replace(ILLEGAL, "").replace(/[&<>]/g, (ch) => TEXT_ESC[ch]!);
}

export function escapeAttr(s: string): string {
  return s.replace(ILLEGAL, "").replace(/[&<>"\n\r\t]/g, (ch) => ATTR_ESC[ch]!);
}

function write(node: Child, out: string[]): void {
  if (node === null || node === undefined || node === false) return;
  if (typeof node === "string") return void out.push(escapeText(node));
  if (typeof node === "number") return void out.push(String(node));
  if (Array.isArray(node)) {
    for (const n of node) write(n, out);
    return;
  }
  out.push("<", node.name);
  if (node.attrs) {
    for (const [k, v] of Object.entries(node.attrs)) {
      if (v !== undefined) out.push(" ", k, '="', escapeAttr(String(v)), '"');
    }
  }
  const start = out.length;
  out.push(">");
  for (const ch of node.children) write(ch, out);
  if (out.length === start + 1) out[start] = "/>";
  else out.push("</", node.name, ">");
}

export function serialize(root: XNode): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write(root, out);
  return out.join("");
}
