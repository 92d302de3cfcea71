import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * Every drizzle table of the project, found where it is defined: each domain package owns its
 * tables (decision 0011), so there is no one module to import them from. Source files of
 * packages/ and apps/ that call sqliteTable( are imported and their exported tables collected.
 */
export interface DefinedTable {
  table: SQLiteTable;
  /** The SQL name, as the migrations create it. */
  name: string;
  /** "packages/auth", "apps/gateway": the workspace that defines it. */
  workspace: string;
  /** The defining file, from the repository root. */
  file: string;
}

const root = join(import.meta.dir, "../..");
const DEFINITION = /\bsqliteTable\(/g;

/** Files under packages/ and apps/ whose text defines a table, with how many calls each makes. */
export function definingFiles(): { file: string; calls: number }[] {
  const out: { file: string; calls: number }[] = [];
  for (const pattern of ["packages/*/src/**/*.ts", "apps/*/src/**/*.ts"]) {
    for (const file of new Bun.Glob(pattern).scanSync({ cwd: root })) {
      const calls = readFileSync(join(root, file), "utf8").match(DEFINITION)?.length ?? 0;
      if (calls > 0) out.push({ file, calls });
    }
  }
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

export async function definedTables(): Promise<DefinedTable[]> {
  const out: DefinedTable[] = [];
  for (const { file } of definingFiles()) {
    const mod = (await import(join(root, file))) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (!(value instanceof SQLiteTable)) continue;
      out.push({ table: value, name: getTableConfig(value).name, workspace: relative(root, join(root, file)).split("/").slice(0, 2).join("/"), file });
    }
  }
  return out;
}

/** Table names defined more than once (in two workspaces, or twice in one), each with where. */
export function definedTwice(tables: readonly Pick<DefinedTable, "name" | "file">[]): Record<string, string[]> {
  const where = new Map<string, string[]>();
  for (const t of tables) where.set(t.name, [...(where.get(t.name) ?? []), t.file]);
  return Object.fromEntries([...where].filter(([, files]) => files.length > 1));
}
