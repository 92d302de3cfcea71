import { readFileSync } from "node:fs";
import { NdcClient, type ClientOptions } from "@ndc-gateway/client";
import type { CliIo } from "../../io";
import { Usage, type Parsed } from "../args";

/**
 * What every `ndc-gateway seller ...` command shares: where the gateway is (`--base-url`), who
 * calls (`--client-id`/`--client-secret`, or NDC_CLIENT_ID/NDC_CLIENT_SECRET), how to print
 * (`--json` for scripts), and a progress line on stderr for anything that takes over a second.
 */
export const CONNECTION_OPTIONS = ["base-url", "token-url", "client-id", "client-secret", "seller", "key", "cert"] as const;
export const SWITCHES = ["json", "strict"] as const;

export interface SellerContext {
  io: CliIo;
  p: Parsed;
  json: boolean;
  /** Prints human lines, or (with --json) one JSON document. */
  print(human: string[] | string, json: unknown): void;
  /** Runs `work`, with a progress line on stderr once it has taken a second. */
  progress<T>(label: string, work: Promise<T>): Promise<T>;
}

export function sellerContext(io: CliIo, p: Parsed): SellerContext {
  const json = p.flags.get("json") === "true";
  return {
    io,
    p,
    json,
    print(human, data) {
      if (json) io.out(JSON.stringify(data, null, 2));
      else for (const line of typeof human === "string" ? [human] : human) io.out(line);
    },
    async progress(label, work) {
      const started = Date.now();
      let shown = false;
      const timer = setInterval(() => {
        shown = true;
        io.err(`… ${label} (${Math.round((Date.now() - started) / 1000)} s)`);
      }, 1000);
      try {
        return await work;
      } finally {
        clearInterval(timer);
        if (shown) io.err(`… ${label}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    },
  };
}

export function baseUrl(ctx: SellerContext): string {
  const url = ctx.p.flags.get("base-url") ?? ctx.io.env.NDC_BASE_URL;
  if (!url) throw new Usage("--base-url is required (or NDC_BASE_URL)");
  if (!/^https?:\/\//.test(url)) throw new Usage(`--base-url must be an http(s) address, got ${url}`);
  return url;
}

/** The signing key and certificate of --key/--cert, both or neither. */
export function signingKey(ctx: SellerContext): ClientOptions["signingKey"] {
  const key = ctx.p.flags.get("key");
  const cert = ctx.p.flags.get("cert");
  if (!key && !cert) return undefined;
  if (!key || !cert) throw new Usage("--key and --cert go together");
  return { privateKeyPem: readFileSync(key, "utf8"), certificatePem: readFileSync(cert, "utf8") };
}

export function client(ctx: SellerContext, extra: Partial<ClientOptions> = {}): NdcClient {
  const clientId = ctx.p.flags.get("client-id") ?? ctx.io.env.NDC_CLIENT_ID;
  const clientSecret = ctx.p.flags.get("client-secret") ?? ctx.io.env.NDC_CLIENT_SECRET;
  if (!clientId || !clientSecret) throw new Usage("credentials needed: --client-id and --client-secret, or NDC_CLIENT_ID and NDC_CLIENT_SECRET");
  // --token-url: the one way to send the secret to another origin than --base-url's (the client refuses discovery's otherwise).
  return new NdcClient({ baseUrl: baseUrl(ctx), tokenUrl: ctx.p.flags.get("token-url"), clientId, clientSecret, seller: ctx.p.flags.get("seller"), signingKey: signingKey(ctx), ...extra });
}

/** A whole number option within bounds, else a usage error. */
export function count(p: Parsed, name: string, fallback: number, min: number, max: number): number {
  const v = p.flags.get(name);
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new Usage(`--${name} must be a whole number from ${min} to ${max}, got ${v}`);
  return Number(v);
}
