#!/usr/bin/env bun
/**
 * Builds the single executable: `bun scripts/build-binary.ts [--outfile dist/ndc-gateway]`
 * (also `npm run build`). docs/single-binary.md explains what goes in and why.
 */
import { mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const ROOT = join(import.meta.dir, "..");
export const DEFAULT_OUTFILE = join(ROOT, "dist", "ndc-gateway");

function gitCommit(): string {
  const r = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
  return r.exitCode === 0 ? r.stdout.toString().trim() : "unknown";
}

export async function buildBinary(outfile = DEFAULT_OUTFILE): Promise<{ outfile: string; bytes: number; ms: number }> {
  const out = resolve(outfile);
  mkdirSync(dirname(out), { recursive: true });
  const started = performance.now();
  const args = [
    "build",
    "--compile",
    "apps/cli/src/main.ts",
    // Migrations are read from disk at run time; inside the binary they live at
    // /$bunfs/root/migrations, where packages/store/src/migrate.ts looks when compiled.
    "--asset",
    "schemas/migrations",
    "--outfile",
    out,
    // Minified code with bytecode starts faster; the source map keeps stack traces readable.
    "--minify",
    "--sourcemap",
    "--bytecode",
    "--format",
    "esm",
    // Configuration is environment variables only (docs/configuration.md): a .env or bunfig.toml
    // lying in the directory an airline starts the binary from must not change its behaviour.
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    "--define",
    `NDC_BUILD_COMMIT=${JSON.stringify(gitCommit())}`,
    "--define",
    `NDC_BUILD_TIME=${JSON.stringify(new Date().toISOString().slice(0, 19) + "Z")}`,
  ];
  const proc = Bun.spawn([process.execPath, ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`bun build --compile failed (exit ${code}):\n${stderr || stdout}`);
  return { outfile: out, bytes: statSync(out).size, ms: Math.round(performance.now() - started) };
}

if (import.meta.main) {
  const i = process.argv.indexOf("--outfile");
  const target = i > 0 ? process.argv[i + 1] : undefined;
  if (i > 0 && !target) {
    console.error("usage: bun scripts/build-binary.ts [--outfile <path>]");
    process.exit(2);
  }
  const r = await buildBinary(target);
  console.log(`built ${r.outfile} (${(r.bytes / 1024 / 1024).toFixed(1)} MiB) in ${(r.ms / 1000).toFixed(1)} s`);
}
