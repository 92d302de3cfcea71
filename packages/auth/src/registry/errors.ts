/**
 * Refusals of the registry operations (the CLI prints them). Codes are stable; texts are
 * English and name identifiers only, never secrets.
 */
export type RegistryErrorCode =
  | "invalid_argument"
  | "unknown_agency"
  | "agency_inactive"
  | "agency_exists"
  | "unknown_client"
  | "unknown_scope"
  | "not_aggregator";

export class RegistryError extends Error {
  constructor(
    readonly code: RegistryErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "RegistryError";
  }
}

export function isRegistryError(e: unknown): e is RegistryError {
  return e instanceof RegistryError;
}
