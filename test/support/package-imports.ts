import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The imports between the workspace packages, read from the source text (no module is loaded), and
 * the floors the README's layout table declares for them (issue 21, section 5). A package stands
 * above everything it imports: an import may only go down, to a lower floor, and only through the
 * other package's name (`@ndc/x`), never into its `src/`.
 */
export const root = join(import.meta.dir, "../..");

export interface Workspace {
  dir: string; // "packages/orders"
  name: string; // "@ndc/orders"
}

export interface Import {
  file: string; // relative to the root
  from: string; // the importing workspace's dir
  to: string; // the imported workspace's dir
  specifier: string;
}

export function workspaces(): Workspace[] {
  return ["packages", "apps"].flatMap((top) =>
    readdirSync(join(root, top))
      .filter((d) => statSync(join(root, top, d)).isDirectory())
      .map((d) => ({ dir: `${top}/${d}`, name: JSON.parse(readFileSync(join(root, top, d, "package.json"), "utf8")).name as string })),
  );
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === "node_modules" || name === "dist") return [];
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    // A test stands above every floor: it may start the whole CLI to test one job.
    if (/\.test\.ts$/.test(name)) return [];
    return /\.(ts|tsx|mts|mjs|js)$/.test(name) ? [p] : [];
  });
}

// `import ... from "x"`, `export ... from "x"`, `import "x"`, `import("x")`, `require("x")`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']/g;

/** Every import of one file that lands in another workspace, by name or by a relative path. */
export function importsOf(file: string, text: string, all: Workspace[]): Import[] {
  const from = all.find((w) => file.startsWith(`${w.dir}/`));
  if (!from) return [];
  const out: Import[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const specifier = m[1]!;
    let to: Workspace | undefined;
    if (specifier.startsWith(".")) {
      const target = relative(root, resolve(root, dirname(file), specifier));
      to = all.find((w) => target === w.dir || target.startsWith(`${w.dir}/`));
    } else {
      to = all.find((w) => specifier === w.name || specifier.startsWith(`${w.name}/`));
    }
    if (to && to.dir !== from.dir) out.push({ file, from: from.dir, to: to.dir, specifier });
  }
  return out;
}

export function allImports(all = workspaces()): Import[] {
  return all.flatMap((w) =>
    sources(join(root, w.dir)).flatMap((p) => {
      const file = relative(root, p);
      return importsOf(file, readFileSync(p, "utf8"), all);
    }),
  );
}

/**
 * The floors from the README's layout table: its "Floor" column, one number per row, shared by
 * every workspace the row's first cell names in backquotes.
 */
export function declaredFloors(readme = readFileSync(join(root, "README.md"), "utf8")): Map<string, number> {
  const section = readme.split(/^## Layout$/m)[1]?.split(/^## /m)[0] ?? "";
  const floors = new Map<string, number>();
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((c) => c.trim());
    const floor = Number(cells[2]);
    if (!line.startsWith("|") || !Number.isInteger(floor) || floor < 1) continue;
    for (const m of cells[1]!.matchAll(/`([^`]+)`/g)) floors.set(m[1]!, floor);
  }
  return floors;
}

/** What breaks the rule: an import that does not go down a floor, or that reaches into another package's files. */
export function violations(imports: Import[], floors: Map<string, number>, all: Workspace[]): string[] {
  const found: string[] = [];
  for (const i of imports) {
    const name = all.find((w) => w.dir === i.to)!.name;
    if (i.specifier !== name) found.push(`${i.file}: ${i.specifier} reaches into ${i.to}'s files (import ${name})`);
    const up = floors.get(i.from);
    const down = floors.get(i.to);
    if (up === undefined || down === undefined) found.push(`${i.file}: ${i.from} -> ${i.to}, a package without a floor in the README`);
    else if (down >= up) found.push(`${i.file}: ${i.from} (floor ${up}) imports ${i.to} (floor ${down}), not below it`);
  }
  return found;
}
