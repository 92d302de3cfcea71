import { CATALOGUE, type ErrorCode, type ErrorFacts } from "@ndc/errors";

/**
 * The one place where a refusal becomes HTTP: its status is the catalogue's, and the facts a
 * domain stated (retry later, answer this challenge, use these methods) become the headers RFC
 * 9110 and RFC 6750 name for them. Domains never set either (test/boundaries/no-http-in-domains).
 */
export function statusOf(code: ErrorCode): number {
  return CATALOGUE[code].status;
}

/** The headers of a refusal's facts, added after the answer's own headers. */
export function factHeaders(facts: ErrorFacts, into: Record<string, string> = {}): Record<string, string> {
  if (facts.allowedMethods !== undefined) into.allow = facts.allowedMethods.join(", ");
  if (facts.retryAfterSeconds !== undefined) into["retry-after"] = String(facts.retryAfterSeconds);
  if (facts.challenge !== undefined) into["www-authenticate"] = facts.challenge;
  return into;
}
