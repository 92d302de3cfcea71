import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acquireBinary, BINARY_HOOK_MS, releaseBinary } from "./binary";
import { JOBS } from "@ndc/scheduler";
import { killAll, ROOT, run, startServer, type Cli, type Running } from "./processes";

const dirs: string[] = [];
function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), "ndc-data-"));
  dirs.push(d);
  return d;
}

let cli: Cli;
beforeAll(async () => {
  const bin = await acquireBinary();
  console.log(`binary: ${(bin.bytes / 1024 / 1024).toFixed(1)} MiB, built in ${bin.ms} ms`);
  cli = [bin.outfile];
}, BINARY_HOOK_MS);
afterAll(async () => {
  killAll();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await releaseBinary();
});

const MIGRATIONS = readdirSync(join(ROOT, "schemas/migrations"))
  .filter((f) => /^\d{4}_.+\.sql$/.test(f))
  .sort()
  .map((f) => f.replace(/\.sql$/, ""));

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;
}
function tokenRequest(url: string, authorization: string): Promise<Response> {
  return fetch(`${url}/oauth/token`, {
    method: "POST",
    headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
}

describe("compiled binary", () => {
  test("version and help answer; an unknown command prints usage on stderr and exits 2", async () => {
    const v = await run(cli, ["version"], {});
    expect(v.code).toBe(0);
    // The build script stamps commit and time; a binary built any other way would say "source".
    expect(v.stdout).toMatch(/^ndc-gateway \d+\.\d+\.\d+ \(NDC 24\.4, ([0-9a-f]+|unknown), built \d{4}-\d\d-\d\dT[\d:]+Z, bun \d/);
    const h = await run(cli, ["help"], {});
    expect(h.code).toBe(0);
    expect(h.stdout).toContain("usage: ndc-gateway <command>");
    const u = await run(cli, ["frobnicate"], {});
    expect(u.code).toBe(2);
    expect(u.stdout).toBe("");
    expect(u.stderr).toContain('unknown command "frobnicate"');
    expect(u.stderr).toContain("usage: ndc-gateway <command>");
  });

  test("a bad GATEWAY_MODE exits 1 with one line and no stack trace", async () => {
    const r = await run(cli, ["serve"], { GATEWAY_MODE: "staging", GATEWAY_DATA_DIR: dataDir() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe('ndc-gateway: configuration error: GATEWAY_MODE must be local, sandbox or production, got "staging"\n');
  });

  test("migrate applies the embedded migrations once", async () => {
    const env = { GATEWAY_DATA_DIR: dataDir() };
    const first = await run(cli, ["migrate"], env);
    expect(first.code).toBe(0);
    // Every file of schemas/migrations came with the binary (it runs from a temp folder, not the repo).
    expect(first.stdout.split("\n").filter((l) => l.startsWith("applied ")).map((l) => l.slice(8))).toEqual(MIGRATIONS);
    const again = await run(cli, ["migrate"], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`nothing to apply; schema at ${MIGRATIONS.at(-1)}`);
  });

  describe("serve (local mode)", () => {
    let dir: string;
    let gw: Running;
    beforeAll(async () => {
      dir = dataDir();
      // Two workers from the compiled binary: serve re-executes the binary itself (no Bun, no script).
      gw = await startServer(cli, ["serve", "--workers", "2"], { GATEWAY_DATA_DIR: dir, PORT: "0" });
      console.log(`binary serve ready in ${gw.readyMs} ms`);
    });
    afterAll(async () => {
      if (gw) await gw.stop();
    });

    test("prints the sandbox credentials saved in the data directory", async () => {
      // serve's lines after "listening on" may reach us a moment later.
      for (let i = 0; i < 200 && !/^serve \(pid /m.test(gw.stdout()); i++) await Bun.sleep(25);
      const creds = JSON.parse(readFileSync(join(dir, "sandbox-credentials.json"), "utf8"));
      for (const field of ["client_id", "client_secret", "api_key", "agency_id", "iata_number"]) {
        expect(typeof creds[field]).toBe("string");
        expect(gw.stdout()).toMatch(new RegExp(`^  ${field} +${creds[field]}$`, "m"));
      }
      expect(gw.stdout()).toContain(`saved in       ${join(dir, "sandbox-credentials.json")}`);
      expect(gw.stdout()).toMatch(/^serve \(pid \d+\): 2 gateway workers \(pid \d+, \d+\) on one port, the scheduler app \(pid \d+\)$/m);
      // The secret is for the terminal only: no JSON log line carries it.
      const logLines = gw.stdout().split("\n").filter((l) => l.startsWith("{"));
      expect(logLines.length).toBeGreaterThan(0);
      expect(logLines.some((l) => l.includes(creds.client_secret))).toBe(false);
    });

    test("/health/ready names the worker that answered and lists the scheduler app's jobs with their next run", async () => {
      const jobs = JOBS.map((j) => j.name).sort();
      let body: { status: string; worker?: { pid: number }; scheduler?: { job: string; nextRunAt: string | null; running: boolean }[] } = { status: "" };
      const workers = new Set<number>();
      for (let i = 0; i < 100 && !(body.scheduler?.length === jobs.length && workers.size === 2); i++) {
        body = (await (await fetch(`${gw.url}/health/ready`, { keepalive: false })).json()) as typeof body;
        if (body.worker) workers.add(body.worker.pid);
        await Bun.sleep(100);
      }
      expect(body.status).toBe("ready");
      // Two workers answer on the one port (a new connection each time).
      expect(workers.size).toBe(2);
      // Every job runs in the scheduler app; each worker reads their status from the store.
      expect(body.scheduler!.map((j) => j.job).sort()).toEqual(jobs);
      for (const j of body.scheduler!) expect(Date.parse(j.nextRunAt!)).toBeGreaterThan(Date.now() - 1000);
    });

    test("the sandbox client gets a 30-minute Bearer token with HTTP Basic", async () => {
      const creds = JSON.parse(readFileSync(join(dir, "sandbox-credentials.json"), "utf8"));
      const res = await tokenRequest(gw.url, basic(creds.client_id, creds.client_secret));
      expect(res.status).toBe(200);
      const body = (await res.json()) as Record<string, unknown>;
      expect(body.token_type).toBe("Bearer");
      expect(body.expires_in).toBe(1800);
      expect(typeof body.access_token).toBe("string");
      expect((body.access_token as string).length).toBeGreaterThan(20);
      // The same endpoint refuses a wrong secret, so the 200 above means something.
      const wrong = await tokenRequest(gw.url, basic(creds.client_id, "not-the-secret"));
      expect(wrong.status).toBe(401);
    });

    test("agency and client commands run through the binary against the same data directory", async () => {
      const env = { GATEWAY_DATA_DIR: dir };
      const agency = await run(cli, ["agency", "register", "--agency-id", "BINTEST", "--iata", "12345675", "--name", "Binary Test Travel"], env);
      expect(agency.code).toBe(0);
      const reg = await run(cli, ["client", "register", "--agency", "BINTEST", "--scopes", "ndc:shop"], env);
      expect(reg.code).toBe(0);
      const id = reg.stdout.match(/^client_id: (\S+)$/m)?.[1];
      const secret = reg.stdout.match(/^client_secret: (\S+)$/m)?.[1];
      expect(id).toBeDefined();
      expect(secret).toBeDefined();
      const list = await run(cli, ["client", "list"], env);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(new RegExp(`^${id}\\tBINTEST\\tactive\\tndc:shop\\t`, "m"));
      expect(list.stdout).toContain("sandbox-local");
      // The running gateway sees the client registered by the other process.
      const res = await tokenRequest(gw.url, basic(id!, secret!));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { scope: string }).scope).toBe("ndc:shop");
    });

    test("seller certify, run by the binary against the binary's own gateway, certifies it (issue 11 item 8)", async () => {
      const creds = JSON.parse(readFileSync(join(dir, "sandbox-credentials.json"), "utf8"));
      const r = await run(cli, ["seller", "certify", "--base-url", gw.url, "--json"], { NDC_CLIENT_ID: creds.client_id, NDC_CLIENT_SECRET: creds.client_secret }, 90_000);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.stdout);
      expect(j.passed).toBe(true);
      // The XSDs came from --schemas' default (../shared/ndc-schemas/24.4), read by xmllint from the binary.
      expect(j.steps.filter((s: { result: string }) => s.result !== "PASS").map((s: { step: string }) => s.step)).toEqual(["signed OrderCreate"]);
    }, 120_000);

    test("SIGTERM shuts down cleanly with exit 0: each child in order, then serve", async () => {
      const code = await gw.stop();
      expect(code).toBe(0);
      expect(gw.stdout()).toContain('"event":"scheduler_stopped"');
      expect(gw.stdout().match(/"event":"gateway_stopping","signal":"SIGTERM"/g)).toHaveLength(2);
      expect(gw.stdout().match(/"event":"gateway_stopped"/g)).toHaveLength(2);
      expect(gw.stdout()).toContain('"event":"serve_stopped"');
      // The scheduler app's own first line, from the binary run again as `scheduler`.
      expect(gw.stdout()).toContain("scheduler running: store.checkpoint");
      gw = undefined as unknown as Running;
    });
  });

  test("seed prints the sandbox secrets when it creates them, and only where they are on a later run", async () => {
    const dir = dataDir();
    const a = await run(cli, ["seed"], { GATEWAY_DATA_DIR: dir });
    expect(a.code).toBe(0);
    const creds = JSON.parse(readFileSync(join(dir, "sandbox-credentials.json"), "utf8"));
    expect(a.stdout).toContain(`  client_secret  ${creds.client_secret}`);
    const b = await run(cli, ["seed"], { GATEWAY_DATA_DIR: dir });
    expect(b.code).toBe(0);
    expect(b.stdout).toContain("schema up to date");
    expect(b.stdout).not.toContain(creds.client_secret);
    expect(b.stdout).toContain(`kept in ${join(dir, "sandbox-credentials.json")}`);
  });

  test("the scheduler runs as its own process and stops on SIGINT (Ctrl-C)", async () => {
    const r = Bun.spawn([...cli, "scheduler"], {
      env: { PATH: process.env.PATH ?? "", GATEWAY_DATA_DIR: dataDir() },
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = r.stdout.getReader();
    let out = "";
    const deadline = Date.now() + 10_000;
    try {
      while (!out.includes("scheduler running: store.checkpoint") && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        out += new TextDecoder().decode(value);
      }
      expect(out).toContain("scheduler running: store.checkpoint");
      r.kill("SIGINT");
      expect(await r.exited).toBe(0);
    } finally {
      if (r.exitCode === null) r.kill("SIGKILL");
    }
  });
});
