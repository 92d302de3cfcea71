import { loadConfig } from "@ndc/config";
import { createLogger } from "@ndc/log";
import { bootGateway, listen, type BootedGateway } from "@ndc/gateway";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { connect } from "node:net";

/** A parsed HTTP/1.1 answer read off a raw socket. */
export interface RawReply {
  status: number;
  headers: Map<string, string>;
  body: string;
}

/**
 * Sends bytes exactly as given over a TCP socket and reads the answer: what fetch() cannot do
 * (odd or missing Host headers, a Content-Length the body does not match, a chosen source
 * address such as 127.0.0.2).
 */
export function rawRequest(
  port: number,
  request: string | Uint8Array,
  opts: { timeoutMs?: number; localAddress?: string } = {},
): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      try {
        resolve(parse(Buffer.concat(chunks)));
      } catch (e) {
        reject(e);
      }
    };
    const timer = setTimeout(finish, opts.timeoutMs ?? 5_000);
    const sock = connect({ host: "127.0.0.1", port, localAddress: opts.localAddress }, () => sock.write(request));
    sock.on("data", (d: Buffer) => {
      chunks.push(d);
      // One answer is all a test wants: stop once its body is complete.
      if (complete(Buffer.concat(chunks))) finish();
    });
    sock.on("close", finish);
    sock.on("error", finish);
  });
}

function split(buf: Buffer): { head: string; body: Buffer } | undefined {
  const i = buf.indexOf("\r\n\r\n");
  if (i === -1) return undefined;
  return { head: buf.subarray(0, i).toString("latin1"), body: buf.subarray(i + 4) };
}

function complete(buf: Buffer): boolean {
  const s = split(buf);
  if (!s) return false;
  const m = /\r\ncontent-length:\s*(\d+)/i.exec(s.head);
  return m ? s.body.length >= Number(m[1]) : false;
}

function parse(buf: Buffer): RawReply {
  const s = split(buf);
  if (!s) throw new Error(`no HTTP answer: ${JSON.stringify(buf.toString("latin1").slice(0, 200))}`);
  const [statusLine, ...lines] = s.head.split("\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
  const headers = new Map<string, string>();
  for (const l of lines) {
    const i = l.indexOf(":");
    headers.set(l.slice(0, i).trim().toLowerCase(), l.slice(i + 1).trim());
  }
  const len = headers.get("content-length");
  let body = len === undefined ? s.body : s.body.subarray(0, Number(len));
  if (headers.get("content-encoding") === "gzip") body = gunzipSync(body);
  return { status, headers, body: body.toString("utf8") };
}

/** The gateway on a real Bun.serve socket (serve.ts listen), on a fresh data directory. */
export interface ListeningGateway {
  gw: BootedGateway;
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function startListeningGateway(env: Record<string, string> = {}): Promise<ListeningGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), "ndc-sock-"));
  const config = loadConfig({ GATEWAY_DATA_DIR: dataDir, GATEWAY_MODE: "local", PORT: "0", LOG_LEVEL: "silent", ...env });
  const gw = await bootGateway({ config, logger: createLogger({ level: "silent" }), handlers: new Map() });
  const server = listen(gw);
  return {
    gw,
    port: Number(new URL(server.url).port),
    url: server.url,
    async close() {
      await server.stop(100);
      await gw.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
