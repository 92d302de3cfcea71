import { writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** IATA's schemas are read from ../shared, never copied into the project. */
export const SCHEMA_DIR = resolve(import.meta.dir, "../../../shared/ndc-schemas/24.4");

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
