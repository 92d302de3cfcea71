import { RegistryError } from "./errors";

/** The scopes a client can be granted (spec 5.5), in the order they are stored and answered; the message catalogue says which message needs which. */
export type Scope =
  | "ndc:shop"
  | "ndc:order"
  | "ndc:order:write"
  | "ndc:payment"
  | "ndc:settle"
  | "ndc:notif:subscribe"
  | "ndc:aggregator"
  | "ndc:accounting";

export const ALL_SCOPES: readonly Scope[] = [
  "ndc:shop",
  "ndc:order",
  "ndc:order:write",
  "ndc:payment",
  "ndc:settle",
  "ndc:notif:subscribe",
  "ndc:aggregator",
  "ndc:accounting",
];

const KNOWN: ReadonlySet<string> = new Set(ALL_SCOPES);

/** Scope names from a space-separated string or a list, checked against spec 5.5. */
export function checkScopes(input: string | readonly string[]): string[] {
  const names = (typeof input === "string" ? input.split(/\s+/) : input.flatMap((s) => s.split(/\s+/))).filter(Boolean);
  const unknown = names.filter((s) => !KNOWN.has(s));
  if (unknown.length) {
    throw new RegistryError(
      "unknown_scope",
      `Unknown scope ${unknown.map((s) => `"${s.slice(0, 40)}"`).join(", ")}; scopes are: ${ALL_SCOPES.join(" ")}.`,
    );
  }
  return names;
}

/** The stored and answered form: space-separated, in the catalogue's order, no repeats. */
export function scopeString(scopes: Iterable<string>): string {
  const set = new Set(scopes);
  return ALL_SCOPES.filter((s) => set.has(s)).join(" ");
}

export function scopeSet(stored: string): Set<string> {
  return new Set(stored.split(" ").filter(Boolean));
}
