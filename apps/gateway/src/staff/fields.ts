import { GatewayError } from "@ndc/errors";

/**
 * The staff API's JSON body fields, read one way by every handler: a field of the wrong type, too
 * long or with too many items is refused with request_invalid naming it, never cut to fit. A cut
 * would be another value, silently: nine digits cut to eight are another agency's IATA number, an
 * id cut to 64 characters another id, a list cut to 20 scopes a different grant.
 */
type Body = Record<string, unknown>;

function invalid(key: string, detail: string): GatewayError {
  return new GatewayError("request_invalid", { detail, element: key });
}

/** Trimmed text, or undefined when the field is absent, null or empty. */
export function optionalText(body: Body, key: string, max: number): string | undefined {
  const v = body[key];
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v !== "string" || v.length > max) throw invalid(key, `${key} is text of at most ${max} characters.`);
  return v.trim() || undefined;
}

/** Trimmed text that must be there; `what` says what it is when it is missing. */
export function requiredText(body: Body, key: string, max: number, what = `${key} is required.`): string {
  const v = optionalText(body, key, max);
  if (v === undefined) throw invalid(key, what);
  return v;
}

/** A list of texts (a single text is a list of one); absent is empty. */
export function textList(body: Body, key: string, maxItems: number, maxLength: number): string[] {
  const v = body[key];
  if (v === undefined || v === null) return [];
  const items = typeof v === "string" ? [v] : v;
  if (!Array.isArray(items) || items.length > maxItems || !items.every((s) => typeof s === "string" && s.length <= maxLength)) {
    throw invalid(key, `${key} is a list of at most ${maxItems} texts of at most ${maxLength} characters each.`);
  }
  return items.map((s: string) => s.trim()).filter(Boolean);
}

/** A list of objects, each read by `item`; absent is empty. */
export function objectList<T>(body: Body, key: string, maxItems: number, what: string, item: (o: Body) => T): T[] {
  const v = body[key];
  if (!Array.isArray(v) || v.length > maxItems || !v.every((o) => o !== null && typeof o === "object" && !Array.isArray(o))) {
    throw invalid(key, `${key} is ${what}, at most ${maxItems}.`);
  }
  return v.map((o) => item(o as Body));
}
