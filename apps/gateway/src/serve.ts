import { readFileSync } from "node:fs";
import type { GatewayConfig } from "@ndc/config";
import type { BootedGateway } from "./boot";
import { edgeFetch } from "./edge";

/**
 * Where TLS is terminated, said at start (spec 4.1: sellers call over HTTPS): by the gateway with
 * its certificate, by a proxy the operator named (TLS_TERMINATED_BY_PROXY), or nowhere, which
 * only local and sandbox modes allow (packages/config refuses it in production).
 */
export function transportOf(config: GatewayConfig): { tls: "gateway" | "proxy" | "none"; line: string } {
  if (config.tls) return { tls: "gateway", line: `transport: HTTPS with the certificate of TLS_CERT_FILE (${config.tls.certFile})` };
  if (config.tlsTerminatedByProxy) return { tls: "proxy", line: "transport: plain HTTP to a proxy that terminates TLS (TLS_TERMINATED_BY_PROXY=true): nothing else may reach this port" };
  return { tls: "none", line: `transport: plain HTTP, no TLS (${config.mode} mode; production needs TLS_CERT_FILE and TLS_KEY_FILE, or TLS_TERMINATED_BY_PROXY=true)` };
}

/**
 * Listens on the configured address: HTTPS when TLS_CERT_FILE and TLS_KEY_FILE are set,
 * plain HTTP otherwise (local and sandbox development, or production behind a TLS-terminating proxy).
 * `reusePort`: several gateway processes bind the same port and the kernel spreads new connections
 * over them (Linux SO_REUSEPORT): `ndc-gateway worker`, of which `serve --workers N` starts N.
 */
export function listen(gw: BootedGateway, opts: { reusePort?: boolean } = {}): { url: string; stop(graceMs?: number): Promise<void> } {
  const { config } = gw;
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    reusePort: opts.reusePort ?? false,
    tls: config.tls
      ? { cert: readFileSync(config.tls.certFile, "utf8"), key: readFileSync(config.tls.keyFile, "utf8") }
      : undefined,
    // Bun's own cap answers an empty 413 before the gateway sees the request, so it is set out of
    // reach: every route that reads a body caps it itself while streaming (the NDC pipeline at
    // MAX_BODY_BYTES, /oauth/token at 8 KiB) and refuses with its documented body.
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    // A client that stops sending is cut after this; the pipeline logs its request as client_abort.
    idleTimeout: config.idleTimeoutSeconds,
    fetch: edgeFetch(gw),
    error: () =>
      new Response(JSON.stringify({ error: "internal_error" }), {
        status: 500,
        headers: { "content-type": "application/json", "cache-control": "no-store" },
      }),
  });
  const scheme = config.tls ? "https" : "http";
  return {
    url: `${scheme}://${server.hostname === "0.0.0.0" ? "127.0.0.1" : server.hostname}:${server.port}`,
    // Graceful: stop accepting, let requests in flight finish, then force after a grace period.
    stop: async (graceMs = 10_000) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const forced = new Promise<void>((resolve) => {
        timer = setTimeout(() => void server.stop(true).then(resolve, resolve), graceMs);
      });
      await Promise.race([server.stop(false), forced]);
      clearTimeout(timer);
    },
  };
}
