/**
 * Resolves on the first SIGINT or SIGTERM so a long-running command can close in order
 * (scheduler, then the listener, then the store). A second signal, or a shutdown that
 * hangs past `graceMs`, exits at once: an operator pressing Ctrl-C twice means it.
 */
export function shutdownSignal(err: (line: string) => void, graceMs = 10_000): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const on = (signal: NodeJS.Signals) => {
      if (received) {
        err(`ndc-gateway: ${signal} again, exiting without waiting`);
        process.exit(130);
      }
      received = true;
      setTimeout(() => {
        err(`ndc-gateway: shutdown took longer than ${graceMs} ms, exiting`);
        process.exit(1);
      }, graceMs).unref();
      resolve(signal);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}
