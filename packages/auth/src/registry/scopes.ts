import { ALL_SCOPES } from "@ndc/messages";
import { RegistryError } from "./errors";

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
