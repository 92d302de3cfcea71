/**
 * A child's side of `serve` (commands/supervisor.ts). `serve` starts its workers and its
 * scheduler app with an IPC channel: that channel is how a child knows it is supervised, how a
 * worker says it is listening (instead of printing the banner the supervisor prints once), and
 * how it learns that its supervisor is gone.
 */

/** What a worker tells its supervisor once its port accepts connections. */
export interface ReadyMessage {
  ready: { url: string; pid: number };
}

/** What serve tells each worker once its banner ("listening on ...") is out. */
export interface ServingMessage {
  serving: true;
}

export function isReadyMessage(m: unknown): m is ReadyMessage {
  const r = (m as Partial<ReadyMessage> | null)?.ready;
  return typeof r === "object" && r !== null && typeof r.url === "string" && typeof r.pid === "number";
}

/** True when this process was started by `serve` (it has the supervisor's channel). */
export function supervised(): boolean {
  return typeof process.send === "function";
}

export function tellSupervisor(message: ReadyMessage): void {
  process.send?.(message);
}

/**
 * Resolves once serve has printed its banner (at once when not supervised): a worker's own log
 * lines then come after serve's first line, `listening on URL`, which scripts read.
 */
export function bannerPrinted(): Promise<void> {
  if (!supervised()) return Promise.resolve();
  return new Promise((resolve) => {
    const on = (m: unknown) => {
      if ((m as Partial<ServingMessage> | null)?.serving !== true) return;
      process.off("message", on);
      resolve();
    };
    process.on("message", on);
  });
}

/**
 * A supervised child never outlives its supervisor: when the channel closes without an orderly
 * stop (serve killed with SIGKILL, or by the OOM killer), the child dies as abruptly, like a
 * process group killed at once. Left running, it would hold the port and the data directory with
 * nobody to stop it. The channel is unreferenced so that it never keeps a finished command alive.
 */
export function dieWithSupervisor(): void {
  if (!supervised()) return;
  process.on("disconnect", () => process.kill(process.pid, "SIGKILL"));
  (process.channel as { unref?: () => void } | undefined)?.unref?.();
}
