import type { Subprocess } from "bun";
import type { Logger } from "@ndc/log";
import { isReadyMessage } from "../supervised";

/**
 * `serve`'s supervisor: N gateway workers (`ndc-gateway worker`, all on one port with
 * SO_REUSEPORT) and one scheduler app (`ndc-gateway scheduler`), each this same program run
 * again. It restarts a child that exits unexpectedly, after a backoff that grows while the child
 * keeps dying young (a crash loop must not spin the machine), and stops them all on request.
 * The children's output is the supervisor's own (inherited), so their log lines reach whatever
 * reads serve's.
 */

export type Role = "worker" | "scheduler";

interface Slot {
  role: Role;
  proc: Subprocess | null;
  startedAt: number;
  /** Consecutive exits of a child that lived shorter than STABLE_MS: the backoff's exponent. */
  quickExits: number;
  restart: ReturnType<typeof setTimeout> | null;
}

/** A child that ran this long before it exited was not crash-looping: its next restart is prompt again. */
const STABLE_MS = 10_000;
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 30_000;

export function restartDelay(quickExits: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** quickExits);
}

/**
 * The command line that runs this program again: the compiled binary is its own entry
 * (process.execPath alone); from source it is Bun plus the entry script. The same rule as
 * packages/store/src/migrate.ts uses to find its migrations: a compiled entry lives in Bun's
 * embedded file system.
 */
export function selfCommand(): string[] {
  const main = Bun.main;
  const compiled = main.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(main);
  return compiled ? [process.execPath] : [process.execPath, main];
}

export class Supervisor {
  private readonly slots: Slot[];
  private stopping = false;
  private anyReady = false;
  /** Whether serve's banner is out: a worker ready later is told at once (src/supervised.ts). */
  private serving = false;
  private readonly firstReady: Promise<string>;
  private settleFirst!: { resolve(url: string): void; reject(e: Error): void };

  constructor(
    private readonly opts: {
      /** This program's command line (selfCommand()). */
      self: string[];
      /** Every child's environment: the supervisor's, with the port resolved and the clock anchored. */
      env: Record<string, string | undefined>;
      workers: number;
      logger: Logger;
    },
  ) {
    this.slots = [
      ...Array.from({ length: opts.workers }, (): Slot => ({ role: "worker", proc: null, startedAt: 0, quickExits: 0, restart: null })),
      { role: "scheduler", proc: null, startedAt: 0, quickExits: 0, restart: null },
    ];
    this.firstReady = new Promise((resolve, reject) => (this.settleFirst = { resolve, reject }));
    // Nobody may be waiting yet when a child fails at once; the rejection is read by start().
    this.firstReady.catch(() => undefined);
  }

  /**
   * Starts the workers; resolves with the address once the first one listens. A child that
   * exits before any worker was ready (a port taken by another program, a store it cannot open)
   * fails the start instead of being restarted forever: serve then stops the rest and exits 1.
   */
  async start(): Promise<string> {
    for (const slot of this.slots) if (slot.role === "worker") this.spawn(slot);
    return await this.firstReady;
  }

  /** serve's banner is out: every worker may log (one ready later is told when it is). */
  announceServing(): void {
    this.serving = true;
    for (const s of this.slots) if (s.role === "worker" && s.proc && s.proc.exitCode === null && s.proc.signalCode === null) s.proc.send({ serving: true });
  }

  /**
   * The scheduler app, once a worker serves: its boot then does not compete for the cores with
   * the workers' (the port answers sooner), and its first line comes after serve's banner.
   */
  startScheduler(): void {
    const slot = this.slots.at(-1)!;
    if (!this.stopping && !slot.proc) this.spawn(slot);
  }

  /** The children running now. */
  pids(): { workers: number[]; scheduler: number | null } {
    const alive = (s: Slot) => (s.proc && s.proc.exitCode === null && s.proc.signalCode === null ? s.proc.pid : null);
    return {
      workers: this.slots.filter((s) => s.role === "worker").map(alive).filter((p): p is number => p !== null),
      scheduler: alive(this.slots.at(-1)!),
    };
  }

  /** SIGTERM to every child (each shuts down in order), SIGKILL to any still there after `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    const running: Subprocess[] = [];
    for (const slot of this.slots) {
      if (slot.restart) clearTimeout(slot.restart);
      if (slot.proc && slot.proc.exitCode === null && slot.proc.signalCode === null) running.push(slot.proc);
    }
    for (const p of running) p.kill("SIGTERM");
    const all = Promise.all(running.map((p) => p.exited));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), graceMs)));
    if ((await Promise.race([all, late])) === "late") {
      for (const p of running) if (p.exitCode === null && p.signalCode === null) {
        this.opts.logger.warn("child_killed", { role: this.roleOf(p), pid: p.pid, afterMs: graceMs });
        p.kill("SIGKILL");
      }
      await all;
    }
    clearTimeout(timer);
  }

  private roleOf(p: Subprocess): Role | undefined {
    return this.slots.find((s) => s.proc === p)?.role;
  }

  private spawn(slot: Slot): void {
    slot.restart = null;
    const restart = slot.proc !== null;
    let proc: Subprocess;
    try {
      proc = this.launch(slot);
    } catch (e) {
      // Could not even start it (out of processes or memory): try again later, as after a crash.
      if (!this.anyReady) return this.settleFirst.reject(e instanceof Error ? e : new Error(String(e)));
      slot.quickExits++;
      const delay = restartDelay(slot.quickExits);
      this.opts.logger.error("child_spawn_failed", { role: slot.role, message: e instanceof Error ? e.message : String(e), restartInMs: delay });
      slot.restart = setTimeout(() => {
        if (!this.stopping) this.spawn(slot);
      }, delay);
      return;
    }
    slot.proc = proc;
    slot.startedAt = performance.now();
    if (restart) this.opts.logger.info("child_restarted", { role: slot.role, pid: proc.pid });
    else this.opts.logger.debug("child_started", { role: slot.role, pid: proc.pid });
    void proc.exited.then((code) => this.exited(slot, proc, code));
  }

  private launch(slot: Slot): Subprocess {
    const proc: Subprocess = Bun.spawn([...this.opts.self, slot.role], {
      env: this.opts.env,
      stdio: ["ignore", "inherit", "inherit"],
      // Its own process group: a Ctrl-C in the terminal reaches serve alone, which stops the children
      // in order (a second signal would make them exit without waiting).
      detached: true,
      // The channel tells a worker it is supervised and carries its "ready" (src/supervised.ts).
      ipc: (message) => {
        if (!isReadyMessage(message)) return;
        this.opts.logger.debug("worker_ready", { pid: message.ready.pid, url: message.ready.url });
        if (this.serving) proc.send({ serving: true });
        if (!this.anyReady) {
          this.anyReady = true;
          this.settleFirst.resolve(message.ready.url);
        }
      },
    });
    return proc;
  }

  private exited(slot: Slot, proc: Subprocess, code: number): void {
    if (this.stopping || slot.proc !== proc) return;
    const signal = proc.signalCode ?? null;
    if (!this.anyReady) {
      this.settleFirst.reject(new Error(`the ${slot.role} (pid ${proc.pid}) exited with ${signal ?? `code ${code}`} before any worker was ready`));
      return;
    }
    slot.quickExits = performance.now() - slot.startedAt >= STABLE_MS ? 0 : slot.quickExits + 1;
    const delay = restartDelay(Math.max(0, slot.quickExits - 1));
    this.opts.logger.warn("child_exited", { role: slot.role, pid: proc.pid, code, signal, restartInMs: delay });
    slot.restart = setTimeout(() => {
      if (!this.stopping) this.spawn(slot);
    }, delay);
  }
}
