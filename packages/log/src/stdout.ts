import { writeSync } from "node:fs";

/**
 * The default sink: standard output, one write per turn of the event loop instead of one per
 * line. Under load a write per request line was a system call per request (about 8 % of an
 * authenticated call answered with an Error over sockets: docs/decisions/0008-per-call-floor.md).
 * Warnings and errors are written at once (after the lines queued before them, to keep the
 * order): a process killed right after logging one still leaves it behind. Whatever is queued
 * when the process exits is written on the way out.
 */
let pending: string[] = [];
let scheduled = false;

function flush(): void {
  scheduled = false;
  if (pending.length === 0) return;
  const text = pending.join("");
  pending = [];
  process.stdout.write(text);
}

export function writeStdout(line: string, urgent: boolean): void {
  pending.push(line + "\n");
  if (urgent) return flush();
  if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}

process.on("exit", () => {
  if (pending.length === 0) return;
  const text = pending.join("");
  pending = [];
  writeSync(1, text);
});
