import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/**
 * Every repository path that README.md, bench/README.md and docs/**\/*.md name (as a path from the
 * root such as `packages/pii/src/retention.ts`, or as a relative Markdown link) exists, so a doc
 * cannot send a reader to a file that is missing. Placeholders (`docs/messages/<Message>.md`)
 * are checked up to the placeholder.
 */
const root = join(import.meta.dir, "../..");
const ROOTS = ["apps", "packages", "docs", "bench", "scripts", "schemas", "test"];
const FROM_ROOT = new RegExp(`(?<![\\w./@-])((?:${ROOTS.join("|")})/[\\w./-]*[\\w/-]|(?:${ROOTS.join("|")})(?=/))`, "g");
const LINK = /\]\(([^)\s#]+)(?:#[^)]*)?\)/g;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? markdownFiles(p) : e.endsWith(".md") ? [p] : [];
  });
}

// bench/README.md is also named by the README, so if it goes missing the first test says so.
const docs = [join(root, "README.md"), join(root, "bench/README.md"), ...markdownFiles(join(root, "docs"))].filter((f) => existsSync(f));

/** Paths a doc names, each with the doc it came from. */
export function referencedPaths(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const fromRoot = [...text.matchAll(FROM_ROOT)].map((m) => m[1]!);
  const links = [...text.matchAll(LINK)]
    .map((m) => m[1]!)
    .filter((l) => !/^[a-z]+:/i.test(l))
    .map((l) => relative(root, join(dirname(file), l)));
  return [...new Set([...fromRoot, ...links])];
}

test("the docs name paths, and every one of them exists", () => {
  const missing: string[] = [];
  let checked = 0;
  for (const file of docs) {
    for (const named of referencedPaths(file)) {
      checked++;
      // A placeholder segment (`schemas/migrations/NNNN_name.sql`) is checked up to its folder.
      const p = /(^|\/)[^/]*(NNNN|XXXX)/.test(named) ? named.slice(0, named.search(/[^/]*(NNNN|XXXX)/)) : named;
      if (!existsSync(join(root, p))) missing.push(`${relative(root, file)}: ${p}`);
    }
  }
  // The README alone names dozens; a regex that matched nothing would pass everything.
  expect(checked).toBeGreaterThan(100);
  console.log(`${checked} referenced paths checked in ${docs.length} documents`);
  expect(missing).toEqual([]);
});

test("the README links bench/README.md, and it lists every benchmark bench/run.ts runs", () => {
  expect(readFileSync(join(root, "README.md"), "utf8")).toContain("bench/README.md");
  const run = readFileSync(join(root, "bench/run.ts"), "utf8");
  const names = JSON.parse(run.match(/BENCHES = (\[[^\]]*\])/)![1]!) as string[];
  const readme = readFileSync(join(root, "bench/README.md"), "utf8");
  for (const n of names) expect(readme).toContain(`\`${n}\` (bench/${n}.ts)`);
});
