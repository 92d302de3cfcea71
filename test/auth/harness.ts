import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { expect } from "bun:test";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import type { Clock } from "@ndc/clock";
import type { RegistryReads } from "@ndc/auth";
import type { Store } from "@ndc/store";
import { bootGateway, type BootedGateway } from "@ndc/gateway";
import { assertSchemaValid } from "../support/xsd";

/**
 * The auth suites' gateway: the real app (bootGateway) in process, on a fresh data directory,
 * with every log line captured so tests can prove no secret or token reaches the log.
 */
export interface AuthGateway {
  gw: BootedGateway;
  dataDir: string;
  logs: string[];
  token(init: { authorization?: string; contentType?: string | null; body?: string }): Promise<TokenReply>;
  ndc(message: string, headers: Record<string, string>, body?: string): Promise<NdcReply>;
  close(opts?: { keepDir?: boolean }): Promise<void>;
}

export interface TokenReply {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

export interface NdcReply {
  status: number;
  headers: Headers;
  body: string;
  /** The wire code of the first Error (<cns:Code>), if any. */
  code: string | undefined;
}

export async function bootAuthGateway(
  env: Record<string, string> = {},
  opts: { clock?: Clock; dataDir?: string; registryReads?: (store: Store) => RegistryReads } = {},
): Promise<AuthGateway> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "ndc-auth-"));
  const config = loadConfig({ GATEWAY_DATA_DIR: dataDir, LOG_LEVEL: "silent", ...env });
  const logs: string[] = [];
  const logger = createLogger({ level: "debug", sink: (l) => logs.push(l) });
  // No business handlers: authentication is tested up to the handler boundary (501 is the success path).
  const gw = await bootGateway({ config, logger, clock: opts.clock, handlers: new Map(), registryReads: opts.registryReads });
  const handle = (path: string, init: RequestInit) => gw.app.handle(new Request(`http://localhost${path}`, init));
  return {
    gw,
    dataDir,
    logs,
    async token({ authorization, contentType = "application/x-www-form-urlencoded", body = "" }) {
      const headers: Record<string, string> = {};
      if (authorization !== undefined) headers.authorization = authorization;
      if (contentType !== null) headers["content-type"] = contentType;
      const res = await handle("/oauth/token", { method: "POST", headers, body });
      return { status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> };
    },
    async ndc(message, headers, body = chainBody([{ role: "Carrier", orgId: "XB" }])) {
      const res = await handle(`/24.4/${message}`, {
        method: "POST",
        headers: { "content-type": "application/xml", "iata-message-name": `IATA_${message}`, ...headers },
        body,
      });
      const raw = new Uint8Array(await res.arrayBuffer());
      const text = new TextDecoder().decode(res.headers.get("content-encoding") === "gzip" ? gunzipSync(raw) : raw);
      expect(res.headers.get("content-type")).toStartWith("application/xml");
      // Every XML answer must validate against IATA's schema (DESIGN 5).
      assertSchemaValid(text);
      return { status: res.status, headers: res.headers, body: text, code: text.match(/<(?:cns:)?Code>([^<]+)</)?.[1] };
    },
    async close({ keepDir = false } = {}) {
      await gw.close();
      if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function basic(id: string, secret: string): string {
  // RFC 6749 2.3.1: each part form-urlencoded, then base64.
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
}

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export interface Link {
  role: "Carrier" | "Seller" | "Distributor";
  orgId: string;
}

/** A minimal AirShoppingRQ-shaped body: DistributionChain and an empty Request. */
export function chainBody(links: Link[], root = "IATA_AirShoppingRQ"): string {
  const ls = links
    .map(
      (l, i) =>
        `<DistributionChainLink><Ordinal>${i + 1}</Ordinal><OrgRole>${l.role}</OrgRole>` +
        `<ParticipatingOrg><OrgID>${l.orgId}</OrgID></ParticipatingOrg></DistributionChainLink>`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<${root} xmlns="http://www.iata.org/IATA/2015/EASD/00/IATA_OffersAndOrdersMessage">` +
    `<DistributionChain>${ls}</DistributionChain><Request/></${root}>`
  );
}

/** Asks for a token with HTTP Basic and returns it, failing the test otherwise. */
export async function fetchToken(g: AuthGateway, id: string, secret: string, scope?: string): Promise<string> {
  const r = await g.token({ authorization: basic(id, secret), body: form(scope ? { grant_type: "client_credentials", scope } : { grant_type: "client_credentials" }) });
  expect(r.status).toBe(200);
  return r.json.access_token as string;
}

export const REALM_CHALLENGE = 'Bearer realm="ndc-gateway"';
export const BASIC_CHALLENGE = 'Basic realm="ndc-gateway"';
export const bearerError = (description: string) =>
  `Bearer realm="ndc-gateway", error="invalid_token", error_description="${description}"`;
