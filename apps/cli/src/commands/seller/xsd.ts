import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Usage, type Parsed } from "../clients";

/**
 * XSD checks for `seller listen` and `seller certify`: IATA's 24.4 schemas from `--schemas DIR`
 * (default ../shared/ndc-schemas/24.4 when present), run with `xmllint --nonet` (Debian's
 * libxml2-utils), the same check the gateway's own tests use.
 */
export const DEFAULT_SCHEMAS = "../shared/ndc-schemas/24.4";

export function schemasDir(p: Parsed, cwd: string): string | undefined {
  const given = p.flags.get("schemas");
  const dir = resolve(cwd, given ?? DEFAULT_SCHEMAS);
  if (existsSync(join(dir, "IATA_OffersAndOrdersCommonTypes.xsd"))) return dir;
  if (given) throw new Usage(`--schemas ${given}: no 24.4 schemas there (IATA_OffersAndOrdersCommonTypes.xsd)`);
  return undefined;
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
