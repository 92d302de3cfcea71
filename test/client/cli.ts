import { runCli } from "../../apps/cli/src/cli";

/** Runs `ndc-gateway <args>` in this process with its output captured, as the binary would print it. */
export interface CliRun {
  code: number;
  out: string[];
  err: string[];
  stdout: string;
}

export async function cli(args: string[], env: Record<string, string | undefined> = {}, onErr?: (line: string) => void): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (l) => void out.push(l),
    err: (l) => {
      err.push(l);
      onErr?.(l);
    },
    env,
  });
  return { code, out, err, stdout: out.join("\n") };
}
