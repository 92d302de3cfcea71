import { createHash, type Hash } from "node:crypto";

/**
 * A digest of a table's rows that means the same on both engines, so `migrate --to` can prove
 * that what PostgreSQL holds after the copy is what SQLite held: each value is written with its
 * kind (SQLite's storage classes, PostgreSQL's bigint/double precision/text/bytea read back as
 * the same JS types), so an integer that became a real, a text that became bytes or a value
 * rounded on the way (PostgreSQL rounds 1.5 bound into a bigint to 2) changes the digest.
 * Rows must be fed in the same order on both sides: by primary key, text in byte order (SQLite's
 * BINARY collation, the baseline's COLLATE "C").
 */
export class RowDigest {
  private readonly hash: Hash = createHash("sha256");
  rows = 0;

  add(values: readonly unknown[]): void {
    this.rows++;
    for (const v of values) this.hash.update(encode(v));
    this.hash.update("\n");
  }

  hex(): string {
    return this.hash.digest("hex");
  }
}

/** Kind, length where the value may hold any byte, value: no two different rows encode alike. */
function encode(v: unknown): string | Uint8Array {
  if (v === null || v === undefined) return "N;";
  if (typeof v === "bigint") return `I${v};`;
  // A Number here is a REAL (both sides hand integers as BigInt): its shortest round-trip text.
  if (typeof v === "number") return `R${Object.is(v, -0) ? "-0" : String(v)};`;
  if (typeof v === "string") return `T${Buffer.byteLength(v)}:${v}`;
  if (v instanceof Uint8Array) return Buffer.concat([Buffer.from(`B${v.byteLength}:`), v]);
  throw new Error(`a value of kind ${typeof v} has no place in the copy`);
}
