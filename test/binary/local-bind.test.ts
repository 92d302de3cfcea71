import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { acquireBinary, BINARY_HOOK_MS, releaseBinary } from "./binary";
import { killAll, startServer, type Running } from "./processes";

const dir = mkdtempSync(join(tmpdir(), "ndc-bind-"));
const running: Running[] = [];

/** An IPv4 address of this machine that is not loopback, if it has one. */
const externalAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

async function reachable(url: string): Promise<boolean> {
  return fetch(url, { signal: AbortSignal.timeout(3_000) }).then(
    (r) => r.status === 200,
    () => false,
  );
}

let local: Running;
let cli: string[];
beforeAll(async () => {
  cli = [(await acquireBinary()).outfile];
  local = await startServer(cli, ["serve"], { GATEWAY_WORKERS: "1", GATEWAY_DATA_DIR: join(dir, "local"), PORT: "0" });
  running.push(local);
}, BINARY_HOOK_MS);
afterAll(async () => {
  for (const r of running) await r.stop();
  killAll();
  rmSync(dir, { recursive: true, force: true });
  await releaseBinary();
});

describe("local mode binds 127.0.0.1", () => {
  test("the server listens on 127.0.0.1 and serves discovery and health there", async () => {
    const { hostname, port } = new URL(local.url);
    expect(hostname).toBe("127.0.0.1");
    expect(await reachable(`http://127.0.0.1:${port}/health/live`)).toBe(true);
    const doc = (await (await fetch(`http://127.0.0.1:${port}/24.4`)).json()) as { mode: string; tokenUrl: string };
    expect(doc.mode).toBe("local");
    expect(doc.tokenUrl).toBe(`http://127.0.0.1:${port}/oauth/token`);
  });

  test.skipIf(!externalAddress)("it is not reachable on this machine's other addresses; sandbox mode is", async () => {
    const { port } = new URL(local.url);
    expect(await reachable(`http://${externalAddress}:${port}/health/live`)).toBe(false);
    // Control: the same probe reaches a gateway bound to every interface, so the refusal above is the binding.
    const open = await startServer(cli, ["serve"], { GATEWAY_WORKERS: "1", GATEWAY_MODE: "sandbox", GATEWAY_DATA_DIR: join(dir, "sandbox"), PORT: "0" });
    running.push(open);
    expect(open.stdout()).not.toContain("sandbox credentials");
    expect(await reachable(`http://${externalAddress}:${new URL(open.url).port}/health/live`)).toBe(true);
  });
});
