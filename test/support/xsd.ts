import { writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { findSchemaDir, missingSchemasNote } from "../../scripts/ndc-schemas.mjs";

const ROOT = resolve(import.meta.dir, "../..");

/**
 * IATA's schemas, never copied into the project: NDC_SCHEMA_DIR, else the workspace's
 * ../shared/ndc-schemas/24.4, else what `npm run schemas` fetched (scripts/ndc-schemas.mjs).
 * Null when none is there: XSD assertions are then skipped, saying so once.
 */
export const SCHEMA_DIR: string | null = findSchemaDir(ROOT, process.env);

let told = false;
function skipped(): { ok: true; output: string } {
  const note = missingSchemasNote(ROOT, process.env);
  if (!told) console.warn(note);
  told = true;
  return { ok: true, output: note };
}

// One file per check, removed right after: bun test does not run exit hooks, so nothing may outlive a call.
let n = 0;

/** The XSD for a document: named after its root element (IATA_<Root>.xsd). */
export function schemaFor(xml: string): string {
  const m = xml.match(/<(?:[A-Za-z_][\w.-]*:)?(IATA_[A-Za-z]+)[\s>/]/);
  if (!m) throw new Error(`no IATA root element in: ${xml.slice(0, 200)}`);
  return `${m[1]}.xsd`;
}

/** Runs `xmllint --noout --nonet --schema` on the document; returns its verdict and output. */
export function validateXml(xml: string, xsd = schemaFor(xml)): { ok: boolean; output: string } {
  if (SCHEMA_DIR === null) return skipped();
  const file = join(tmpdir(), `ndc-xsd-${process.pid}-${n++}.xml`);
  writeFileSync(file, xml);
  const r = Bun.spawnSync(["xmllint", "--noout", "--nonet", "--schema", join(SCHEMA_DIR, xsd), file]);
  rmSync(file, { force: true });
  return { ok: r.exitCode === 0, output: r.stderr.toString() + r.stdout.toString() };
}

/** Throws with xmllint's explanation when the document is not valid against its schema. */
export function assertSchemaValid(xml: string, xsd?: string): void {
  const v = validateXml(xml, xsd);
  if (!v.ok) throw new Error(`response is not valid against ${xsd ?? schemaFor(xml)}:\n${v.output}\n--- document ---\n${xml.slice(0, 2000)}`);
}
