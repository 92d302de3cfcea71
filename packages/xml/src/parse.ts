import { SaxesParser } from "saxes";
import { GatewayError } from "@ndc/errors";
import type { XmlElement } from "./tree";
import { NO_ATTRIBUTES, readPlain } from "./parse-plain";

export interface ParseLimits {
  maxDepth: number;
  maxElements: number;
}

/**
 * Any DOCTYPE or ENTITY declaration is refused before the parser sees a byte: that closes
 * billion laughs, external entities and quadratic blow-up at once, in time linear in the body.
 * (`<!` is otherwise only legal for comments and CDATA, which are allowed.)
 */
const FORBIDDEN = /<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i;

export function refuseDeclarations(xml: string): void {
  if (FORBIDDEN.test(xml)) {
    throw new GatewayError("xml_forbidden_construct");
  }
}

/**
 * The request's tree. Declarations are refused first; a plain document (./parse-plain.ts) is
 * read directly, and anything else, malformed documents included, by the strict parser.
 */
export function parseXml(xml: string, limits: ParseLimits): XmlElement {
  refuseDeclarations(xml);
  return readPlain(xml, limits) ?? parseStrict(xml, limits);
}

/**
 * Strict, namespace-aware parse (saxes: well-formedness and namespace errors are fatal)
 * into an XmlElement tree, counting depth and elements as it goes so a hostile document
 * is stopped at the limit rather than after it has been built.
 */
export function parseStrict(xml: string, limits: ParseLimits): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  // Character data is gathered per open element as one string: most elements get one chunk or none.
  const stack: { el: XmlElement; text: string }[] = [];
  let root: XmlElement | undefined;
  let count = 0;

  parser.on("doctype", () => {
    throw new GatewayError("xml_forbidden_construct");
  });
  parser.on("opentag", (node) => {
    count++;
    if (count > limits.maxElements) {
      throw new GatewayError("xml_limit_exceeded", { detail: `More than ${limits.maxElements} elements.` });
    }
    if (stack.length + 1 > limits.maxDepth) {
      throw new GatewayError("xml_limit_exceeded", { detail: `Elements nested deeper than ${limits.maxDepth}.` });
    }
    let attrs: Record<string, string> = NO_ATTRIBUTES;
    for (const key in node.attributes) {
      const a = node.attributes[key]!;
      // Namespace declarations are resolved already; keep plain attributes by local name.
      if (a.prefix === "xmlns" || a.name === "xmlns") continue;
      if (attrs === NO_ATTRIBUTES) attrs = {};
      attrs[a.local] = a.value;
    }
    const parent = stack[stack.length - 1];
    const el: XmlElement = {
      ns: node.uri,
      name: node.local,
      attrs,
      children: [],
      text: "",
      path: parent ? `${parent.el.path}/${node.local}` : node.local,
    };
    if (parent) parent.el.children.push(el);
    else root = el;
    stack.push({ el, text: "" });
  });
  const onText = (t: string) => {
    const top = stack[stack.length - 1];
    if (top) top.text += t;
  };
  parser.on("text", onText);
  parser.on("cdata", onText);
  parser.on("closetag", () => {
    const top = stack.pop();
    if (top) top.el.text = top.text;
  });

  try {
    parser.write(xml).close();
  } catch (e) {
    if (e instanceof GatewayError) throw e;
    // saxes messages carry line:column and a description of the fault, never the content.
    const msg = e instanceof Error ? e.message : String(e);
    throw new GatewayError("xml_malformed", { detail: msg.slice(0, 300) });
  }
  if (!root) throw new GatewayError("xml_malformed", { detail: "No root element." });
  return root;
}
