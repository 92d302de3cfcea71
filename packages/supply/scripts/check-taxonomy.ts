/**
 * Checks the simulated airline's taxonomy nodes against the public airline taxonomy codeset
 * (spec 4.8 rule 7: page version 3, dated 2026-02-11). It needs the codeset, which is not
 * vendored and cannot be fetched offline, so it is not part of the test suite.
 *
 *   bun packages/supply/scripts/check-taxonomy.ts <url-or-file-of-the-codeset-as-CSV>
 *
 * The CSV must have a header row naming a "code" column and a "name" column (the codeset page's
 * table exported as is). The script prints every node of ours that is missing from the codeset
 * or named differently, and exits 1 if there is any.
 */
import { readFileSync } from "node:fs";
import { TAXONOMY_NODES } from "../src/taxonomy/tree";

async function load(source: string): Promise<string> {
  if (/^https?:\/\//.test(source)) {
    const r = await fetch(source);
    if (!r.ok) throw new Error(`fetching ${source}: HTTP ${r.status}`);
    return r.text();
  }
  return readFileSync(source, "utf8");
}

function parseCsv(text: string): Map<string, string> {
  const [header, ...rows] = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const cols = header!.split(",").map((c) => c.trim().toLowerCase());
  const ci = cols.indexOf("code");
  const ni = cols.indexOf("name");
  if (ci < 0 || ni < 0) throw new Error('the CSV needs "code" and "name" columns');
  const out = new Map<string, string>();
  for (const row of rows) {
    const cells = row.split(",").map((c) => c.trim().replace(/^"|"$/g, ""));
    out.set(cells[ci]!.toUpperCase(), cells[ni] ?? "");
  }
  return out;
}

const source = process.argv[2];
if (!source) {
  console.error("usage: bun packages/supply/scripts/check-taxonomy.ts <codeset CSV url or file>");
  process.exit(2);
}
const codeset = parseCsv(await load(source));
let problems = 0;
for (const node of TAXONOMY_NODES) {
  const published = codeset.get(node.code);
  if (published === undefined) {
    console.log(`missing  ${node.code}  ${node.name}`);
    problems++;
  } else if (published.toLowerCase() !== node.name.toLowerCase()) {
    console.log(`renamed  ${node.code}  ours "${node.name}", codeset "${published}"`);
    problems++;
  }
}
console.log(problems === 0 ? `all ${TAXONOMY_NODES.length} nodes found in the codeset` : `${problems} node(s) differ`);
process.exit(problems === 0 ? 0 : 1);
