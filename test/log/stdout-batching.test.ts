import { describe, expect, test } from "bun:test";
import { join } from "node:path";

/**
 * The default log sink writes info lines once per event-loop turn (packages/log/src/stdout.ts),
 * so these run a real process and read its standard output as an operator's collector would.
 */
const ROOT = join(import.meta.dir, "../..");

function run(script: string): { stdout: string; signal: string | null } {
  const p = Bun.spawnSync([process.execPath, "-e", `import { createLogger } from "@ndc/log";\nconst log = createLogger({ level: "info" });\n${script}`], {
    cwd: ROOT,
  });
  return { stdout: p.stdout.toString(), signal: p.signalCode ? String(p.signalCode) : null };
}

const events = (stdout: string) => stdout.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l).event as string);

describe("request log lines on standard output", () => {
  test("lines of one loop turn all leave, in order, before the process ends", () => {
    const r = run(`log.info("one"); log.info("two"); log.info("three");`);
    expect(events(r.stdout)).toEqual(["one", "two", "three"]);
  }, 20_000);

  test("an error line is written at once, after the info lines queued before it: SIGKILL right after it loses neither", () => {
    const r = run(`log.info("queued"); log.error("failure"); process.kill(process.pid, "SIGKILL");`);
    expect(r.signal).toBe("SIGKILL");
    expect(events(r.stdout)).toEqual(["queued", "failure"]);
  }, 20_000);

  test("process.exit() in the same turn still writes the queued lines", () => {
    const r = run(`log.info("before exit"); process.exit(3);`);
    expect(events(r.stdout)).toEqual(["before exit"]);
  }, 20_000);

  test("lines queued across turns all arrive", () => {
    const r = run(`for (let i = 0; i < 5; i++) setTimeout(() => log.info("t" + i), i);`);
    expect(events(r.stdout)).toEqual(["t0", "t1", "t2", "t3", "t4"]);
  }, 20_000);
});
