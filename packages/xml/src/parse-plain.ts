import type { XmlElement } from "./tree";

/**
 * A reader for the plain XML that nearly every request is: an optional UTF-8 declaration, then
 * elements with ASCII names, unprefixed attributes and namespace declarations, and character
 * data with no references, CDATA, comments or processing instructions. It builds the tree the
 * strict parser builds, or answers undefined the moment anything falls outside that subset (or a
 * limit is reached), and the strict parser (saxes) then reads the document and judges it: every
 * malformed document, and every unusual well-formed one, gets saxes' verdict and message.
 *
 * Why: saxes checks each character's class one call at a time and was about 40 % of an NDC
 * call's floor (docs/decisions/0008). test/xml/parse-plain.test.ts runs this reader against
 * saxes over thousands of mutated requests: whenever it answers a tree, saxes answers the same.
 */

// Outside the subset wherever they appear: references (entities, character references), carriage
// returns (line-end normalisation), characters XML 1.0 forbids, unpaired surrogates, "]]>".
const UNPLAIN = /[&\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\]\]>/;
const DECLARATION = /<\?xml[ \t\n]+version[ \t\n]*=[ \t\n]*(?:"1\.0"|'1\.0')(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(?:"UTF-8"|'UTF-8'|"utf-8"|'utf-8'))?[ \t\n]*\?>/y;
/** Shared by every element without attributes (most of them); the tree is read-only. */
export const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;
// No prefix bound, no default namespace: the scope a document starts in (no prototype, so a
// prefix such as "constructor" is unbound like any other).
const INITIAL_SCOPE: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, { "": "" });

// Scanned with charCodeAt rather than sticky regular expressions: a regex call per name or
// space cost more than the rest of the reader.
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a;
}

/** The ASCII subset of NameStartChar: letters and "_" (the colon is read as the prefix separator). */
function isNameStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d;
}

function skipSpace(xml: string, i: number): number {
  while (isSpace(xml.charCodeAt(i))) i++;
  return i;
}

/** The end of the NCName at i (i itself when there is none). */
function nameEnd(xml: string, i: number): number {
  if (!isNameStart(xml.charCodeAt(i))) return i;
  i++;
  while (isNameChar(xml.charCodeAt(i))) i++;
  return i;
}

/** The end of the QName at i, and where its colon is (-1 without a prefix); -1 when there is none. */
let colonAt = -1;
function qnameEnd(xml: string, i: number): number {
  const first = nameEnd(xml, i);
  if (first === i) return -1;
  colonAt = -1;
  if (xml.charCodeAt(first) !== 0x3a) return first;
  const second = nameEnd(xml, first + 1);
  if (second === first + 1) return -1;
  colonAt = first;
  return second;
}

const XML_NS = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

/** The tree, or undefined: not plain, or a limit reached (the strict parser then decides). */
export function readPlain(xml: string, limits: { maxDepth: number; maxElements: number }): XmlElement | undefined {
  if (UNPLAIN.test(xml)) return undefined;
  let i = 0;
  DECLARATION.lastIndex = 0;
  if (DECLARATION.test(xml)) i = DECLARATION.lastIndex;
  const n = xml.length;
  // The open elements, their qualified names (for the end tag) and the namespaces in scope at
  // each (the parent's object unless the element declares any): three arrays, no object per element.
  const stack: XmlElement[] = [];
  const qnames: string[] = [];
  const scopes: Record<string, string>[] = [];
  let root: XmlElement | undefined;
  let count = 0;
  let scope = INITIAL_SCOPE;

  while (i < n) {
    const lt = xml.indexOf("<", i);
    const textEnd = lt === -1 ? n : lt;
    if (textEnd > i) {
      const top = stack[stack.length - 1];
      if (top) top.text += xml.substring(i, textEnd);
      else for (let k = i; k < textEnd; k++) if (!isSpace(xml.charCodeAt(k))) return undefined; // text outside the root
    }
    if (lt === -1) break;
    i = lt + 1;
    if (xml.charCodeAt(i) === 0x2f /* / */) {
      // End tag: the name of the element it closes, optional space, ">".
      const qname = qnames.pop();
      if (qname === undefined || !xml.startsWith(qname, i + 1)) return undefined;
      stack.pop();
      scopes.pop();
      i = skipSpace(xml, i + 1 + qname.length);
      if (xml.charCodeAt(i) !== 0x3e) return undefined;
      i++;
      scope = scopes.length ? scopes[scopes.length - 1]! : INITIAL_SCOPE;
      continue;
    }
    // Start tag. Comments, CDATA, processing instructions and declarations are not plain.
    if (root && stack.length === 0) return undefined; // a second root
    const tagEnd = qnameEnd(xml, i);
    if (tagEnd === -1) return undefined;
    const qname = xml.substring(i, tagEnd);
    const prefix = colonAt === -1 ? "" : xml.substring(i, colonAt);
    const local = colonAt === -1 ? qname : xml.substring(colonAt + 1, tagEnd);
    i = tagEnd;
    let declared: Record<string, string> | undefined;
    let attrs: Record<string, string> = NO_ATTRIBUTES;
    let selfClosing = false;
    for (;;) {
      const before = i;
      i = skipSpace(xml, i);
      const code = xml.charCodeAt(i);
      if (code === 0x3e /* > */) {
        i++;
        break;
      }
      if (code === 0x2f /* / */) {
        if (xml.charCodeAt(i + 1) !== 0x3e) return undefined;
        i += 2;
        selfClosing = true;
        break;
      }
      if (i === before) return undefined; // attributes are separated by space
      const nameStart = i;
      const attrEnd = qnameEnd(xml, i);
      if (attrEnd === -1) return undefined;
      const attrColon = colonAt;
      i = skipSpace(xml, attrEnd);
      if (xml.charCodeAt(i) !== 0x3d /* = */) return undefined;
      i = skipSpace(xml, i + 1);
      const quote = xml.charCodeAt(i);
      if (quote !== 0x22 && quote !== 0x27) return undefined;
      const end = xml.indexOf(quote === 0x22 ? '"' : "'", i + 1);
      if (end === -1) return undefined;
      const value = xml.substring(i + 1, end);
      // Attribute values are normalised (tab and newline become spaces) and may not hold "<".
      if (value.includes("<") || value.includes("\t") || value.includes("\n")) return undefined;
      i = end + 1;
      const first = xml.substring(nameStart, attrColon === -1 ? attrEnd : attrColon);
      if (first === "xmlns") {
        // saxes trims a namespace name before binding it: a padded one is left to it, as are
        // binding xml or xmlns, unbinding a prefix, and the reserved namespace names.
        if (value.startsWith(" ") || value.endsWith(" ") || value === XML_NS || value === XMLNS_NS) return undefined;
        const bound = attrColon === -1 ? "" : xml.substring(attrColon + 1, attrEnd);
        if (bound !== "" && (value === "" || bound === "xml" || bound === "xmlns")) return undefined;
        declared ??= Object.create(null) as Record<string, string>;
        if (bound in declared) return undefined; // repeated
        declared[bound] = value;
      } else {
        // Prefixed attributes, and a name an object holds already, are left to the strict parser.
        if (attrColon !== -1 || first === "__proto__") return undefined;
        if (attrs === NO_ATTRIBUTES) attrs = {};
        else if (first in attrs) return undefined; // repeated
        attrs[first] = value;
      }
    }
    if (declared) {
      const inner = Object.create(null) as Record<string, string>;
      for (const k in scope) inner[k] = scope[k]!;
      for (const k in declared) inner[k] = declared[k]!;
      scope = inner;
    }
    if (prefix === "xml" || prefix === "xmlns") return undefined;
    const uri = scope[prefix];
    if (uri === undefined) return undefined; // unbound prefix
    count++;
    if (count > limits.maxElements || stack.length + 1 > limits.maxDepth) return undefined;
    const parent = stack[stack.length - 1];
    const el: XmlElement = { ns: uri, name: local, attrs, children: [], text: "", path: parent ? `${parent.path}/${local}` : local };
    if (parent) parent.children.push(el);
    else root = el;
    if (selfClosing) {
      scope = scopes.length ? scopes[scopes.length - 1]! : INITIAL_SCOPE;
    } else {
      stack.push(el);
      qnames.push(qname);
      scopes.push(scope);
    }
  }
  if (stack.length > 0 || !root) return undefined;
  return root;
}
