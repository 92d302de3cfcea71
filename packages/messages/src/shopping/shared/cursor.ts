import { GatewayError } from "@ndc/errors";
import { checkOccurs, checkText, children, type XmlElement } from "@ndc/xml";

/**
 * A request element together with the path a seller would use to find it
 * ("Request/FlightRequest/.../OriginDestCriteria[2]/OriginDepCriteria/Date").
 * Paths start below the root, like the envelope decoder's, and carry 1-based indexes
 * on repeated elements, so TagText points at exactly the element at fault.
 */
export interface Cursor {
  readonly el: XmlElement;
  readonly path: string;
}

export function invalid(path: string, detail: string): GatewayError {
  return new GatewayError("request_invalid", { detail, element: path });
}

function join(path: string, name: string): string {
  return path ? `${path}/${name}` : name;
}

export function opt(parent: Cursor | undefined, name: string): Cursor | undefined {
  if (!parent) return undefined;
  const found = children(parent.el, name);
  if (found.length === 0) return undefined;
  return { el: found[0]!, path: join(parent.path, name) };
}

export function req(parent: Cursor, name: string): Cursor {
  const c = opt(parent, name);
  if (!c) throw invalid(join(parent.path, name), `${name} is required.`);
  return c;
}

/** Every child of this name. Indexed paths only when the element actually repeats in the schema. */
export function list(parent: Cursor | undefined, name: string): Cursor[] {
  if (!parent) return [];
  return children(parent.el, name).map((el, i) => ({ el, path: `${join(parent.path, name)}[${i + 1}]` }));
}

// Every text read below is checked against its 24.4 type's limits (@ndc/xml TEXT_LIMITS) as it
// is read, so a value a decoder hands on (and the gateway may store and later emit) is in bounds.

/** Trimmed text, or undefined when the element is absent or empty. */
export function optText(parent: Cursor | undefined, name: string): string | undefined {
  const c = opt(parent, name);
  const t = c?.el.text.trim();
  return t ? checkText(name, t, c!.path) : undefined;
}

export function reqText(parent: Cursor, name: string): string {
  const c = req(parent, name);
  const t = c.el.text.trim();
  if (!t) throw invalid(c.path, `${name} must not be empty.`);
  return checkText(name, t, c.path);
}

/** Texts of every child of this name, empty ones refused (an empty token is never meaningful here). */
export function texts(parent: Cursor | undefined, name: string): string[] {
  const cursors = list(parent, name);
  checkOccurs(name, cursors.map((c) => c.path));
  return cursors.map((c) => {
    const t = c.el.text.trim();
    if (!t) throw invalid(c.path, `${name} must not be empty.`);
    return checkText(name, t, c.path);
  });
}

export function pathOf(parent: Cursor, name: string): string {
  return join(parent.path, name);
}
