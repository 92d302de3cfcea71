export type DriverName = "bun-sqlite" | "libsql" | "postgres";

/** Chooses the driver for a database URL; `requested` comes from GATEWAY_DATABASE_DRIVER. */
export function driverFor(url: string, requested?: string): DriverName {
  const wanted = requested?.trim() || undefined;
  if (wanted !== undefined && wanted !== "libsql" && wanted !== "bun-sqlite") {
    throw new Error(`GATEWAY_DATABASE_DRIVER must be libsql or bun-sqlite, got "${wanted}"`);
  }
  // PostgreSQL has one driver (Bun.SQL, decision 0041): a SQLite driver cannot be forced on it.
  if (/^postgres(ql)?:\/\//i.test(url)) {
    if (wanted !== undefined) throw new Error(`GATEWAY_DATABASE_DRIVER=${wanted} cannot open a PostgreSQL URL: ${redact(url)}`);
    return "postgres";
  }
  if (/^(libsql|https?|wss?):\/\//i.test(url)) {
    if (wanted === "bun-sqlite") throw new Error(`bun-sqlite cannot open a server URL: ${redact(url)}`);
    return "libsql";
  }
  if (!url.startsWith("file:")) throw new Error(`unsupported database URL: ${redact(url)}`);
  return wanted ?? "bun-sqlite";
}

/** The file path of a `file:` URL (file:/abs, file:///abs, file:rel); query options are dropped. */
export function filePath(url: string): string {
  let rest = url.slice("file:".length).replace(/\?.*$/, "");
  if (rest.startsWith("//")) rest = rest.slice(2);
  return decodeURIComponent(rest);
}

export function isMemory(path: string): boolean {
  return path === ":memory:" || path === "";
}

/** URLs may carry a token in the query string or a password before the host; keep both out of error messages. */
export function redact(url: string): string {
  return url.replace(/\?.*$/, "?…").replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, "$1:…@");
}
