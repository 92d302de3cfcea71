import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/**
 * A decision record reads as a decision: under 150 lines, its measurements and their history in an
 * appendix beside it (`NNNN-appendix-*.md`) that the record links. And a link into a section of a
 * doc (`0006-appendix-measurements.md#...`) lands on a heading that exists, so moving a section
 * out of a record cannot leave a reader at the top of the wrong file.
 */
const root = join(import.meta.dir, "../..");
const decisions = join(root, "docs/decisions");
const RECORD_MAX_LINES = 150;

const files = readdirSync(decisions).filter((f) => /^\d{4}-.*\.md$/.test(f));
const isAppendix = (f: string) => /^\d{4}-appendix-/.test(f);
const lines = (f: string) => readFileSync(join(decisions, f), "utf8").replace(/\n$/, "").split("\n").length;

test("every decision record is under 150 lines", () => {
  const records = files.filter((f) => !isAppendix(f));
  expect(records.length).toBeGreaterThan(20);
  expect(records.filter((f) => lines(f) >= RECORD_MAX_LINES).map((f) => `${f}: ${lines(f)} lines`)).toEqual([]);
});

test("every appendix is linked from its record, and its record exists", () => {
  for (const appendix of files.filter(isAppendix)) {
    const number = appendix.slice(0, 4);
    const record = files.find((f) => f.startsWith(`${number}-`) && !isAppendix(f));
    expect(record, `${appendix} has no record`).toBeDefined();
    expect(readFileSync(join(decisions, record!), "utf8")).toContain(`](${appendix}`);
  }
});

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const h = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (!h) continue;
    const slug = h[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n ? `${slug}-${n}` : slug);
  }
  return out;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? markdownFiles(p) : e.endsWith(".md") ? [p] : [];
  });
}

test("every link to a section of a doc lands on a heading of that doc", () => {
  const docs = [join(root, "README.md"), join(root, "bench/README.md"), ...markdownFiles(join(root, "docs"))];
  const broken: string[] = [];
  let checked = 0;
  for (const file of docs) {
    for (const m of readFileSync(file, "utf8").matchAll(/\]\(([^)\s#]*\.md|)#([^)\s]+)\)/g)) {
      const target = m[1] ? join(dirname(file), m[1]) : file;
      if (!existsSync(target)) continue; // a missing file is test/docs/referenced-paths.test.ts's to report
      checked++;
      if (!anchors(readFileSync(target, "utf8")).has(decodeURIComponent(m[2]!))) broken.push(`${relative(root, file)}: ${m[0]}`);
    }
  }
  // The docs link dozens of sections; a regex that matched nothing would pass everything.
  expect(checked).toBeGreaterThan(30);
  expect(broken).toEqual([]);
});

test("the anchor rule above is GitHub's", () => {
  const a = anchors("# 0006 appendix\n## 2026-11-29 (later): the ceiling of the 0.5 target, measured\n## `ndc-error` (x)\n## Left\n## Left\n");
  expect([...a]).toEqual(["0006-appendix", "2026-11-29-later-the-ceiling-of-the-05-target-measured", "ndc-error-x", "left", "left-1"]);
});
