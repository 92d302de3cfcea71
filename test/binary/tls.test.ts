import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:tls";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killAll, run, sourceCli, startServer, type Running } from "./processes";

// Runs from source (`bun apps/cli/src/main.ts serve`), so the source path is covered too.
const dir = mkdtempSync(join(tmpdir(), "ndc-tls-"));
const certFile = join(dir, "cert.pem");
const keyFile = join(dir, "key.pem");
let cert: string;
let gw: Running;

beforeAll(async () => {
  const openssl = Bun.spawnSync(
    [
      "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
      // The address the gateway prints is 127.0.0.1, so the certificate names it too and the
      // client below can verify it for real instead of switching verification off.
      "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
      "-keyout", keyFile, "-out", certFile,
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  if (openssl.exitCode !== 0) throw new Error(`openssl failed: ${openssl.stderr.toString()}`);
  cert = readFileSync(certFile, "utf8");
  gw = await startServer(
    sourceCli,
    ["serve"],
    { GATEWAY_WORKERS: "1", GATEWAY_DATA_DIR: join(dir, "data"), PORT: "0", TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile },
    { fetchTls: { ca: cert } },
  );
});
afterAll(async () => {
  await gw?.stop();
  killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe("TLS", () => {
  test("serve prints an https address and answers HTTPS verified against the certificate", async () => {
    expect(gw.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${gw.url}/health/ready`, { tls: { ca: cert } } as RequestInit);
    expect(res.status).toBe(200);
    // Under serve the ready answer also lists the scheduler jobs (docs/discovery.md).
    expect(await res.json()).toMatchObject({ status: "ready", scheduler: expect.any(Array) });
    const discovery = (await (await fetch(`${gw.url}/24.4`, { tls: { ca: cert } } as RequestInit)).json()) as { tokenUrl: string };
    expect(discovery.tokenUrl).toBe(`${gw.url}/oauth/token`);
  });

  test("the server presents the configured certificate", async () => {
    const { port } = new URL(gw.url);
    const fingerprint = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: "127.0.0.1", port: Number(port), ca: cert, servername: "localhost" }, () => {
        resolve(socket.getPeerCertificate().fingerprint256);
        socket.end();
      });
      socket.on("error", reject);
    });
    const expected = Bun.spawnSync(["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", certFile]).stdout.toString();
    expect(`SHA256 Fingerprint=${fingerprint}`).toBe(expected.trim().replace(/^sha256 Fingerprint=/i, "SHA256 Fingerprint="));
  });

  test("an untrusted client refuses the self-signed certificate (verification is real)", async () => {
    await expect(fetch(`${gw.url}/health/live`)).rejects.toMatchObject({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
  });

  test("plain HTTP to the TLS port gets no HTTP answer", async () => {
    const plain = gw.url.replace(/^https:/, "http:");
    const outcome = await fetch(`${plain}/health/live`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => `HTTP ${r.status}`,
      () => "refused",
    );
    expect(outcome).toBe("refused");
  });

  test("a certificate without its key is a configuration error", async () => {
    const r = await run(sourceCli, ["serve"], { GATEWAY_DATA_DIR: join(dir, "data2"), TLS_CERT_FILE: certFile });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("ndc-gateway: configuration error: TLS_CERT_FILE and TLS_KEY_FILE must be set together\n");
  });
});
