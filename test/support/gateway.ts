import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import type { Clock } from "@ndc/clock";
import type { MessageHandler } from "@ndc/messages";
import { bootGateway, type BootedGateway } from "@ndc/gateway";
import { assertSchemaValid } from "./xsd";
import { databaseEnv, dropDatabaseFor } from "./database";

export interface NdcReply {
  status: number;
  headers: Headers;
  body: string;
}

export interface TestGateway {
  gw: BootedGateway;
  dataDir: string;
  /** Every log line the gateway wrote, as written. */
  logs: string[];
  /** In-process HTTP through the real Elysia app. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * POSTs an NDC message with the sandbox API key unless other headers are given.
   * Every XML answer is checked against IATA's XSD before it is returned.
   */
  ndc(message: string, body: string | Uint8Array, init?: { headers?: Record<string, string>; method?: string }): Promise<NdcReply>;
  close(): Promise<void>;
}

/**
 * What production mode needs to start (docs/configuration.md): its own field key, the https
 * address sellers reach it at (discovery never takes one from a request's Host), and TLS: here a
 * proxy's, as these gateways are called in process.
 */
export const PRODUCTION_ENV: Record<string, string> = {
  GATEWAY_MODE: "production",
  GATEWAY_FIELD_KEY: Buffer.alloc(32, 7).toString("base64"),
  PUBLIC_BASE_URL: "https://ndc.example.test",
  TLS_TERMINATED_BY_PROXY: "true",
};

export async function startTestGateway(
  env: Record<string, string> = {},
  clock?: Clock,
  handlers?: Map<string, MessageHandler>,
  /** More options for bootGateway (the background pass, for example). */
  boot: Omit<Parameters<typeof bootGateway>[0] & {}, "config" | "logger" | "clock" | "handlers"> = {},
): Promise<TestGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), "ndc-gw-"));
  const logs: string[] = [];
  // The simulated operations feed is off unless a test asks for it: its disruptions depend on the day the supply starts.
  // A test that names its own GATEWAY_DATA_DIR (to boot a second gateway on the same data) gets
  // that directory's database on PostgreSQL too, as its SQLite file would be the same file; it
  // drops it itself (dropDatabaseFor) once its gateways are closed.
  const config = loadConfig({ GATEWAY_DATA_DIR: dataDir, GATEWAY_MODE: "local", OPERATIONS_FEED_PER_MILLE: "0", ...databaseEnv(env.GATEWAY_DATA_DIR ?? dataDir), ...env });
  const logger = createLogger({ level: "debug", sink: (l) => logs.push(l) });
  const gw = await bootGateway({ ...boot, config, logger, clock, handlers });
  const fetchIt = (path: string, init?: RequestInit) => gw.app.handle(new Request(`http://localhost${path}`, init));
  return {
    gw,
    dataDir,
    logs,
    fetch: fetchIt,
    async ndc(message, body, init = {}) {
      const headers: Record<string, string> = {
        "content-type": "application/xml",
        "iata-message-name": `IATA_${message}`,
        ...(gw.sandbox ? { "x-api-key": gw.sandbox.api_key } : {}),
        ...init.headers,
      };
      const res = await fetchIt(`/24.4/${message}`, { method: init.method ?? "POST", headers, body: init.method === "GET" ? undefined : (body as BodyInit) });
      const raw = new Uint8Array(await res.arrayBuffer());
      const text = new TextDecoder().decode(res.headers.get("content-encoding") === "gzip" ? gunzipSync(raw) : raw);
      if (res.headers.get("content-type")?.startsWith("application/xml")) assertSchemaValid(text);
      return { status: res.status, headers: res.headers, body: text };
    },
    async close() {
      await gw.close();
      rmSync(dataDir, { recursive: true, force: true });
      dropDatabaseFor(dataDir);
    },
  };
}

/** The wire code of the first Error (or Acknowledgement StatusCode) in a response. */
export function errorCode(xml: string): string | undefined {
  return xml.match(/<(?:cns:)?Code>([^<]+)</)?.[1] ?? xml.match(/<(?:cns:)?StatusCode>([^<]+)</)?.[1];
}
