/** The CLI's command-line reading (client, agency, agency settlement, seller): one reader, one usage error. */

/** A mistake in the command line: the command prints it with its usage and exits 2. */
export class Usage extends Error {}

export interface Parsed {
  positional: string[];
  flags: Map<string, string>;
}

/** --flag value and --flag=value; every flag takes a value, except the `switches` (--json), which take none. */
export function parse(args: readonly string[], allowed: readonly string[], switches: readonly string[] = []): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (switches.includes(name) && eq < 0) {
      if (flags.has(name)) throw new Usage(`--${name} given twice`);
      flags.set(name, "true");
      continue;
    }
    if (!allowed.includes(name)) throw new Usage(`unknown option --${name}`);
    if (flags.has(name)) throw new Usage(`--${name} given twice`);
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (value === undefined) throw new Usage(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { positional, flags };
}

export function required(p: Parsed, name: string): string {
  const v = p.flags.get(name);
  if (!v) throw new Usage(`--${name} is required`);
  return v;
}

/** Exactly `n` positional arguments, or at least `n` when `more`. */
export function positional(p: Parsed, n: number, what: string, more = false): string[] {
  if (p.positional.length < n || (!more && p.positional.length > n)) throw new Usage(`expected ${what}`);
  return p.positional;
}
