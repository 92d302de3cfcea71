import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../../scripts/build-binary";

type Built = { outfile: string; bytes: number; ms: number };

const PREFIX = "ndc-bin-";
/**
 * The compile's own budget (about 10 s on an idle machine, minutes on a loaded one), and the
 * budget of a beforeAll that waits for it: longer, so a slow compile fails with the build
 * script's own message ("did not finish within its budget") rather than a hook timeout.
 */
export const COMPILE_BUDGET_MS = 240_000;
export const BINARY_HOOK_MS = COMPILE_BUDGET_MS + 30_000;
let built: Promise<Built> | undefined;
let dir: string | undefined;
let users = 0;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes binaries (about 110 MB each) left by runs that died before their afterAll. */
function sweepStale(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(name.slice(PREFIX.length).split("-")[0]);
    if (name.startsWith(PREFIX) && pid && pid !== process.pid && !alive(pid)) {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/**
 * Compiles ndc-gateway with the real build script into a temporary folder and hands it to a
 * test file; files running while one is held share it. bun test has no run-wide teardown
 * (process exit hooks do not fire), so each file releases it in afterAll and the last
 * release deletes it.
 */
export function acquireBinary(): Promise<Built> {
  users++;
  if (!built) {
    sweepStale();
    dir = mkdtempSync(join(tmpdir(), `${PREFIX}${process.pid}-`));
    built = buildBinary(join(dir, "ndc-gateway"), { budgetMs: COMPILE_BUDGET_MS });
  }
  return built;
}

export async function releaseBinary(): Promise<void> {
  if (users === 0) return;
  users--;
  if (users > 0 || !built) return;
  await built.catch(() => undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
  built = undefined;
  dir = undefined;
}
