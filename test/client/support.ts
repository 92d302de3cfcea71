import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { bootGateway, listen, type BootedGateway } from "@ndc/gateway";
import { NdcClient, type ClientOptions } from "@ndc-gateway/client";
import { assertSchemaValid } from "../support/xsd";

/**
 * A real gateway listening on a free local port (local mode, on the wall clock, so the sandbox
 * controls can move it), for the client and the seller CLI to talk to over HTTP.
 */
export interface ListeningGateway {
  gw: BootedGateway;
  url: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

export async function startListeningGateway(env: Record<string, string> = {}): Promise<ListeningGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), "ndc-client-"));
  const config = loadConfig({ GATEWAY_DATA_DIR: dataDir, GATEWAY_MODE: "local", PORT: "0", ...env });
  const gw = await bootGateway({ config, logger: createLogger({ level: "silent" }) });
  const server = listen(gw);
  return {
    gw,
    url: server.url,
    clientId: gw.sandbox!.client_id,
    clientSecret: gw.sandbox!.client_secret,
    async close() {
      await server.stop(100);
      await gw.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A client of the sandbox seller that checks every XML answer it receives against IATA's XSD
 * (xmllint), through a fetch wrapper that reads a copy of each answer.
 */
export function sandboxClient(g: ListeningGateway, o: Partial<ClientOptions> = {}): NdcClient & { requests: string[] } {
  const requests: string[] = [];
  const client = new NdcClient({
    baseUrl: g.url,
    clientId: g.clientId,
    clientSecret: g.clientSecret,
    fetch: async (url, init) => {
      requests.push(`${init?.method ?? "GET"} ${new URL(url).pathname}`);
      // The request as built by the client, inflated when it was sent gzipped: valid against its XSD too.
      if (init?.body instanceof Uint8Array) {
        const raw = init.body;
        assertSchemaValid(new TextDecoder().decode(raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw));
      }
      const res = await fetch(url, init);
      if ((res.headers.get("content-type") ?? "").includes("xml")) assertSchemaValid(await res.clone().text());
      return res;
    },
    ...o,
  });
  return Object.assign(client, { requests });
}

/** A travel date a month ahead: always inside the sandbox's 330-day schedule. */
export const travelDate = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
