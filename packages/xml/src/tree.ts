import { NDC_CONTENT_NAMESPACES } from "./namespaces";

/**
 * The parsed form of a request: a small immutable tree, namespace-resolved.
 * Lookups match the local name in the NDC namespaces only, so a foreign element
 * that happens to share a name (say, inside AugmentationPoint) is never read as NDC content.
 */
export interface XmlElement {
  readonly ns: string;
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  /** Concatenated character data directly inside this element. */
  text: string;
  /** Slash path from the root, for error messages (TagText). */
  readonly path: string;
}

function isNdc(el: XmlElement): boolean {
  return NDC_CONTENT_NAMESPACES.has(el.ns);
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (c.name === name && isNdc(c)) return c;
  return undefined;
}

export function children(el: XmlElement | undefined, name: string): XmlElement[] {
  if (!el) return [];
  return el.children.filter((c) => c.name === name && isNdc(c));
}

/** Follows a slash-separated path of local names, first match at each step. */
export function at(el: XmlElement | undefined, path: string): XmlElement | undefined {
  let cur = el;
  for (const step of path.split("/")) {
    if (!cur) return undefined;
    cur = child(cur, step);
  }
  return cur;
}

/** All elements at the end of the path (the last step may repeat; earlier steps take each match). */
export function all(el: XmlElement | undefined, path: string): XmlElement[] {
  let level: XmlElement[] = el ? [el] : [];
  for (const step of path.split("/")) level = level.flatMap((e) => children(e, step));
  return level;
}

/** Trimmed text at the path, or undefined when the element is absent or empty. */
export function textAt(el: XmlElement | undefined, path: string): string | undefined {
  const t = at(el, path)?.text.trim();
  return t ? t : undefined;
}
