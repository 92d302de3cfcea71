import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireBinary, BINARY_HOOK_MS, releaseBinary } from "./binary";
import { killAll, ROOT, startServer, type Cli } from "./processes";
import { dataDirModes, expectedPrivateModes } from "../support/file-modes";

/**
 * File modes of a real process's data directory: `npm start` (scripts/run.mjs -> apps/cli serve)
 * and the compiled binary's `serve`. Both run under umask 000, so nothing may rely on the umask:
 * before the fix the directory came out 0777 and the database, -wal and -shm 0666.
 */
const roots: string[] = [];
function dataDir(): string {
  const root = mkdtempSync(join(tmpdir(), "ndc-modes-proc-"));
  roots.push(root);
  // Not yet there: the gateway creates it.
  return join(root, "data");
}

/** The command under `sh -c 'umask 000; exec ...'`. */
function underUmask0(cli: string[]): Cli {
  return ["/bin/sh", "-c", 'umask 000; exec "$@"', "sh", ...cli];
}

let binary: string;
beforeAll(async () => {
  binary = (await acquireBinary()).outfile;
}, BINARY_HOOK_MS);
afterAll(async () => {
  killAll();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
  await releaseBinary();
});

describe("data directory modes of a real process (umask 000)", () => {
  const runs: [string, () => Cli, string[]][] = [
    ["npm start", () => underUmask0(["node", join(ROOT, "scripts/run.mjs"), "start"]), []],
    ["the binary's serve", () => underUmask0([binary, "serve"]), []],
  ];
  for (const [name, cli, args] of runs) {
    test(`${name}: directory 0700; gateway.db, -wal, -shm, field-key, sandbox-credentials.json 0600`, async () => {
      const dir = dataDir();
      const gw = await startServer(cli(), args, { GATEWAY_DATA_DIR: dir, PORT: "0", GATEWAY_MODE: "local", GATEWAY_WORKERS: "1" });
      try {
        // The process wrote (migrations, the sandbox seller) and holds the database open in WAL mode.
        const creds = JSON.parse(await Bun.file(join(dir, "sandbox-credentials.json")).text()) as { client_id: string; client_secret: string };
        const token = await fetch(`${gw.url}/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ grant_type: "client_credentials", client_id: creds.client_id, client_secret: creds.client_secret }),
        });
        expect(token.status).toBe(200);
        expect(dataDirModes(dir)).toEqual(expectedPrivateModes());
      } finally {
        expect(await gw.stop()).toBe(0);
      }
    }, 120_000);
  }
});
