#!/usr/bin/env bun
/**
 * Builds the single executable: `bun scripts/build-binary.ts [--outfile dist/ndc-gateway]`
 * (also `npm run build`). docs/single-binary.md explains what goes in and why.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const ROOT = join(import.meta.dir, "..");
export const DEFAULT_OUTFILE = join(ROOT, "dist", "ndc-gateway");

function gitCommit(): string {
  const r = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
  return r.exitCode === 0 ? r.stdout.toString().trim() : "unknown";
}

/**
 * `budgetMs`: the compile's own time budget (default none): past it the compiler is killed and
 * the error says so, instead of a caller's hook timing out around it (test/binary/binary.ts).
 */
export async function buildBinary(outfile = DEFAULT_OUTFILE, opts: { budgetMs?: number } = {}): Promise<{ outfile: string; bytes: number; ms: number }> {
  const out = resolve(outfile);
  const outDir = dirname(out);
  mkdirSync(outDir, { recursive: true });
  const started = performance.now();
  const args = [
    "build",
    "--compile",
    join(ROOT, "apps/cli/src/main.ts"),
    // Migrations are read from disk at run time; inside the binary they live at
    // /$bunfs/root/migrations (SQLite) and /$bunfs/root/migrations-postgres, where
    // packages/store/src/migrate.ts looks when compiled.
    "--asset",
    join(ROOT, "schemas/migrations"),
    "--asset",
    join(ROOT, "schemas/migrations-postgres"),
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
  // The compiler writes a temporary .bun-build file (about 107 MB) into its working directory and
  // leaves it there when it is killed: it works in the output's folder, never in the checkout.
  const proc = Bun.spawn([process.execPath, ...args], { cwd: outDir, stdout: "pipe", stderr: "pipe", timeout: opts.budgetMs, killSignal: "SIGKILL" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) {
    for (const f of readdirSync(outDir)) if (f.endsWith(".bun-build")) rmSync(join(outDir, f), { force: true });
    const overBudget = opts.budgetMs !== undefined && proc.signalCode === "SIGKILL" && performance.now() - started >= opts.budgetMs;
    if (overBudget) throw new Error(`bun build --compile did not finish within its budget of ${Math.round(opts.budgetMs! / 1000)} s and was stopped (a loaded machine: run again when it is quieter)`);
    throw new Error(`bun build --compile failed (exit ${code ?? proc.signalCode}):\n${stderr || stdout}`);
  }
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
