import { DOMParser, type Document, type Element } from "@xmldom/xmldom";

/**
 * Reading answers by local name, whatever prefixes the gateway chose. Answers are parsed with
 * @xmldom/xmldom, which resolves no external entity; a DOCTYPE is refused outright, as no NDC
 * answer has one.
 */
export function parseXml(xml: string): Document {
  if (/<!DOCTYPE/i.test(xml)) throw new Error("refused: an XML answer with a DOCTYPE");
  let failure: string | undefined;
  const doc = new DOMParser({
    onError: (level, message) => {
      if (level !== "warning") failure ??= message;
    },
  }).parseFromString(xml, "text/xml");
  if (failure || !doc.documentElement) throw new Error(`the answer is not well-formed XML: ${failure ?? "no root"}`);
  return doc;
}

/** The element children of `el` with the local name `name` (all of them when no name). */
export function kids(el: Element, name?: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (name === undefined || (n as Element).localName === name)) out.push(n as Element);
  }
  return out;
}

export function kid(el: Element | undefined, name: string): Element | undefined {
  return el ? kids(el, name)[0] : undefined;
}

/** Follows a path of local names, first match at each step. */
export function at(el: Element | undefined, ...path: string[]): Element | undefined {
  let cur = el;
  for (const name of path) cur = kid(cur, name);
  return cur;
}

/** Every descendant with the local name, in document order. */
export function all(el: Element, name: string): Element[] {
  const out: Element[] = [];
  const walk = (e: Element) => {
    for (const k of kids(e)) {
      if (k.localName === name) out.push(k);
      walk(k);
    }
  };
  walk(el);
  return out;
}

export function text(el: Element | undefined): string | undefined {
  return el ? (el.textContent ?? "").trim() : undefined;
}

/** The text at a path of local names below `el`. */
export function textAt(el: Element | undefined, ...path: string[]): string | undefined {
  return text(at(el, ...path));
}

/** An amount element as decimal text and currency (`<Amount CurCode="EUR">12.50</Amount>`). */
export interface Amount {
  amount: string;
  currency: string;
}

export function amountOf(el: Element | undefined): Amount | undefined {
  if (!el) return undefined;
  return { amount: text(el) ?? "", currency: el.getAttribute("CurCode") ?? "" };
}

export type { Document, Element };
