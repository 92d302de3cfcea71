import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../../scripts/build-binary";

let built: Promise<{ outfile: string; bytes: number; ms: number }> | undefined;

/**
 * Compiles ndc-gateway once per test run (every file of the run shares it), into a temporary
 * folder, with the real build script. The folder (about 110 MB) goes when the run ends.
 */
export function compiledBinary(): Promise<{ outfile: string; bytes: number; ms: number }> {
  if (!built) {
    const dir = mkdtempSync(join(tmpdir(), "ndc-bin-"));
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    built = buildBinary(join(dir, "ndc-gateway"));
  }
  return built;
}
