/** Where a command writes. Lines, not streams, so tests can capture them and the binary stays simple. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  /** Standard input as text when it is not a terminal (a password piped in); "" otherwise. */
  stdin?: () => Promise<string>;
}

export const processIo: CliIo = {
  out: (line) => void process.stdout.write(line + "\n"),
  err: (line) => void process.stderr.write(line + "\n"),
  env: process.env,
  stdin: async () => (process.stdin.isTTY ? "" : await Bun.stdin.text()),
};

/** Thrown for a mistake in the command line itself: usage is printed and the exit code is 2. */
export class UsageError extends Error {}
