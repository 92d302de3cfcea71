import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { findSchemaDir, MARKER } from "../../../../../scripts/ndc-schemas.mjs";
import { Usage, type Parsed } from "../args";

/**
 * XSD checks for `seller listen` and `seller certify`: IATA's 24.4 schemas from `--schemas DIR`,
 * else where the gateway's tests look (NDC_SCHEMA_DIR, ../shared/ndc-schemas/24.4, then what
 * `npm run schemas` fetched into .ndc-schemas/24.4, from the current directory), run with
 * `xmllint --nonet` (Debian's libxml2-utils), the same check the gateway's own tests use.
 */
export function schemasDir(p: Parsed, cwd: string, env: Record<string, string | undefined>): string | undefined {
  const given = p.flags.get("schemas");
  if (!given) return findSchemaDir(cwd, env) ?? undefined;
  const dir = resolve(cwd, given);
  if (existsSync(join(dir, MARKER))) return dir;
  throw new Usage(`--schemas ${given}: no 24.4 schemas there (${MARKER})`);
}

/** The root element's local name (IATA_OrderViewRS), which names its XSD. */
export function rootOf(xml: string): string | undefined {
  return xml.match(/<(?:[A-Za-z_][\w.-]*:)?(IATA_[A-Za-z]+)[\s>/]/)?.[1];
}

export interface XsdVerdict {
  ok: boolean;
  schema: string;
  /** xmllint's first complaint, when not valid. */
  detail?: string;
}

export function validate(xml: string, dir: string): XsdVerdict {
  const root = rootOf(xml);
  if (!root) return { ok: false, schema: "?", detail: "no IATA_ root element" };
  const schema = `${root}.xsd`;
  if (!existsSync(join(dir, schema))) return { ok: false, schema, detail: `no ${schema} in ${dir}` };
  let r;
  try {
    r = Bun.spawnSync(["xmllint", "--noout", "--nonet", "--schema", join(dir, schema), "-"], { stdin: new TextEncoder().encode(xml) });
  } catch {
    return { ok: false, schema, detail: "xmllint is not installed (Debian: apt-get install libxml2-utils)" };
  }
  const out = r.stderr.toString().split("\n").find((l) => l && !l.endsWith(" validates")) ?? "";
  return r.exitCode === 0 ? { ok: true, schema } : { ok: false, schema, detail: out.replace(/^-:/, "line ") };
}
