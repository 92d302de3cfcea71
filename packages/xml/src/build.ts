/**
 * A small XML builder: nodes are plain objects serialised once at the end.
 * Names carry their prefix ("cns:Code"); roots declare the prefixes they use.
 */
export type Child = XNode | string | number | null | undefined | false | Child[];

export interface XNode {
  readonly name: string;
  readonly attrs?: Readonly<Record<string, string | number | undefined>>;
  readonly children: Child[];
  /** Set by `shared`: the node is written once and its text reused wherever it recurs. */
  readonly shared?: true;
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

/**
 * Marks a node that recurs (the same object placed several times in one answer, or reused across
 * answers): the serializer writes it once and reuses its text. Nodes are never mutated after they
 * are built, so the text cannot go stale; the cache is weak, so it lives as long as the node.
 */
export function shared<T extends XNode>(node: T): T {
  return Object.assign(node, { shared: true as const });
}

const sharedText = new WeakMap<XNode, string>();

/**
 * The node written now and kept only as its text: a leaf that serialises to exactly what the
 * node would, so a kept answer holds one string rather than its tree of nodes.
 */
export function prewritten(node: XNode): XNode {
  return writtenNode(node.name, writtenText(node));
}

/** The node as text, without an XML declaration (what `prewritten` keeps). */
export function writtenText(node: XNode): string {
  const out: Part[] = [];
  write(node, out);
  return joined(out);
}

/**
 * An element the streaming writer (./writer.ts) has already written, as a node: placed in a tree
 * (the envelope), its text is copied as-is, never walked or escaped again.
 */
export function writtenNode(name: string, text: string): XNode {
  const leaf: XNode = { name, children: [], shared: true };
  sharedText.set(leaf, text);
  return leaf;
}

const writtenBytesOf = new WeakMap<XNode, Uint8Array>();

/**
 * An element the byte writer (./byte-writer.ts) has already written, kept as its UTF-8 bytes: the
 * envelope is written around them as bytes (`serializeBytes`), so a 748 KB AirShoppingRS is not
 * decoded to text, joined into the envelope's text and encoded again by the HTTP layer (three
 * copies of the answer). `serialize` still accepts it (decoded once), for the tests' text.
 */
export function writtenBytes(name: string, bytes: Uint8Array): XNode {
  const leaf: XNode = { name, children: [], shared: true };
  writtenBytesOf.set(leaf, bytes);
  return leaf;
}

/** Whether the node is a `writtenBytes` element (so its document is best written as bytes). */
export function isWrittenBytes(node: XNode): boolean {
  return writtenBytesOf.has(node);
}

/** What the serializer collects: text, or the bytes of a `writtenBytes` element in its place. */
type Part = string | Uint8Array;

const TEXT_ESC: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };
const ATTR_ESC: Record<string, string> = { ...TEXT_ESC, '"': "&quot;", "\n": "&#10;", "\r": "&#13;", "\t": "&#9;" };

// Characters XML 1.0 cannot carry at all; dropped rather than emitted as an invalid document.
const ILLEGAL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// One test per string decides whether any rewriting is needed: most text (ids, codes, amounts)
// has nothing to escape, and a failed test costs far less than two replace passes.
const TEXT_NEEDS = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const ATTR_NEEDS = /[&<>"\n\r\t\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const TEXT_SPECIAL = /[&<>]/g;
const ATTR_SPECIAL = /[&<>"\n\r\t]/g;
const textEsc = (ch: string) => TEXT_ESC[ch]!;
const attrEsc = (ch: string) => ATTR_ESC[ch]!;

export function escapeText(s: string): string {
  if (!TEXT_NEEDS.test(s)) return s;
  return s.replace(ILLEGAL, "").replace(TEXT_SPECIAL, textEsc);
}

export function escapeAttr(s: string): string {
  if (!ATTR_NEEDS.test(s)) return s;
  return s.replace(ILLEGAL, "").replace(ATTR_SPECIAL, attrEsc);
}

/**
 * Pushes the node's text onto `out` (joined once at the end): one push per start tag, text and
 * end tag, no per-node closures or attribute-entry arrays. An element with nothing written
 * between its tags is self-closed; an empty string child still counts (`<a></a>`).
 */
function write(node: Child, out: Part[]): void {
  if (node === null || node === undefined || node === false) return;
  if (typeof node === "string") {
    out.push(escapeText(node));
    return;
  }
  if (typeof node === "number") {
    out.push(String(node));
    return;
  }
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) write(node[i], out);
    return;
  }
  if (node.shared) {
    const bytes = writtenBytesOf.get(node);
    if (bytes !== undefined) {
      out.push(bytes);
      return;
    }
    let text = sharedText.get(node);
    if (text === undefined) {
      const sub: Part[] = [];
      writeElement(node, sub);
      sharedText.set(node, (text = joined(sub)));
    }
    out.push(text);
    return;
  }
  writeElement(node, out);
}

function writeElement(node: XNode, out: Part[]): void {
  let open = "<" + node.name;
  const attrs = node.attrs;
  if (attrs) {
    for (const k in attrs) {
      const v = attrs[k];
      if (v !== undefined) open += " " + k + '="' + escapeAttr(String(v)) + '"';
    }
  }
  const children = node.children;
  if (!writes(children)) {
    out.push(open + "/>");
    return;
  }
  out.push(open + ">");
  for (let i = 0; i < children.length; i++) write(children[i], out);
  out.push("</" + node.name + ">");
}

/** Whether a child list writes anything at all. */
function writes(children: readonly Child[]): boolean {
  for (let i = 0; i < children.length; i++) {
    const ch = children[i];
    if (ch === null || ch === undefined || ch === false) continue;
    if (!Array.isArray(ch) || writes(ch)) return true;
  }
  return false;
}

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const utf8 = new TextEncoder();
const utf8Text = new TextDecoder();

export function serialize(root: XNode): string {
  const out: Part[] = [DECLARATION];
  write(root, out);
  return joined(out);
}

/** The parts as one text: written bytes decoded (only where a caller wants text of them). */
function joined(out: Part[]): string {
  for (let i = 0; i < out.length; i++) {
    const p = out[i]!;
    if (typeof p !== "string") out[i] = utf8Text.decode(p);
  }
  return out.join("");
}

/**
 * The document as UTF-8 bytes, the same bytes as `serialize` encoded: the text around each
 * `writtenBytes` element is encoded (the envelope, a few hundred bytes) and the element's bytes
 * copied in once, into the one buffer sent.
 */
export function serializeBytes(root: XNode): Uint8Array<ArrayBuffer> {
  const out: Part[] = [DECLARATION];
  write(root, out);
  const chunks: Uint8Array[] = [];
  let run = "";
  for (const p of out) {
    if (typeof p === "string") run += p;
    else {
      if (run) chunks.push(utf8.encode(run));
      run = "";
      chunks.push(p);
    }
  }
  if (run) chunks.push(utf8.encode(run));
  return Buffer.concat(chunks);
}
