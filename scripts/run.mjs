#!/usr/bin/env node
// Entry for `npm start`, `npm test`, `npm run cli`, `npm run try`, `npm run bench` and `npm run build` on a machine that has
// only Node.js and npm: installs what is missing (Bun comes from the npm registry as a pinned
// dev dependency; xmllint from Debian's libxml2-utils for the schema checks, xmlsec1 for the signature interop tests;
// Debian's chromium for the staff console's browser tests), then hands over to Bun.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeTooOld } from "./node-floor.mjs";

const tooOld = nodeTooOld(process.versions.node);
if (tooOld) {
  console.error(tooOld);
  process.exit(1);
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bun = join(root, "node_modules", ".bin", process.platform === "win32" ? "bun.exe" : "bun");

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", cwd: root, ...opts });
  if (r.status !== 0) {
    console.error(`${cmd} ${args.join(" ")} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

function ensureDeps() {
  const marker = join(root, "node_modules", ".package-lock.json");
  const lock = join(root, "package-lock.json");
  const stale = !existsSync(bun) || !existsSync(marker) || statSync(lock).mtimeMs > statSync(marker).mtimeMs;
  if (stale) {
    console.error("Installing dependencies (npm ci)...");
    run("npm", ["ci", "--no-audit", "--no-fund"]);
  }
}

function has(cmd) {
  return spawnSync("sh", ["-c", `command -v ${cmd}`], { stdio: "ignore" }).status === 0;
}

/** Installs Debian packages with apt-get when this user can (root or sudo); false when it cannot or the install fails. */
function aptInstall(pkgs, why) {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const sudo = !isRoot && has("sudo") ? ["sudo"] : [];
  if (!has("apt-get") || !(isRoot || sudo.length)) return false;
  console.error(`Installing ${pkgs.join(", ")} (Debian) ${why}...`);
  const apt = (args) =>
    spawnSync(sudo[0] ?? "apt-get", [...(sudo.length ? ["apt-get"] : []), ...args], { stdio: "inherit", cwd: root, env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }).status === 0;
  return apt(["update", "-qq"]) && apt(["install", "-y", "-qq", ...pkgs]);
}

// Debian packages the tests call: xmllint for the schema checks, xmlsec1 for the signature interop tests.
const TEST_TOOLS = [
  ["xmllint", "libxml2-utils"],
  ["xmlsec1", "xmlsec1"],
];

function ensureXmllint() {
  const missing = TEST_TOOLS.filter(([cmd]) => !has(cmd)).map(([, pkg]) => pkg);
  if (missing.length === 0) return;
  if (aptInstall(missing, "for the schema and signature checks")) return;
  console.error(`The tests validate every response with xmllint and check signatures with xmlsec1. Install ${missing.join(" and ")} (Debian/Ubuntu: apt-get install ${missing.join(" ")}) and run again.`);
  process.exit(1);
}

// The staff console's browser tests drive Debian's chromium (playwright-core, never a downloaded
// browser). Without it they skip, saying why; nothing else depends on it.
function ensureChromium() {
  if (has("chromium")) return;
  if (!aptInstall(["chromium"], "for the staff console's browser tests")) console.error("chromium could not be installed: the browser tests in test/staff-browser will be skipped.");
}

function runTests(args) {
  ensureXmllint();
  ensureChromium();
  // bun test prints its summary as " N pass" / " N fail"; CI reads one plain line instead.
  const child = spawn(bun, ["test", ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let pass = 0;
  let fail = 0;
  let sawSummary = false;
  const scan = (chunk, out) => {
    out.write(chunk);
    for (const line of chunk.toString().split("\n")) {
      const p = line.match(/^\s*(\d+) pass$/);
      const f = line.match(/^\s*(\d+) fail$/);
      if (p) (pass = Number(p[1])), (sawSummary = true);
      if (f) fail = Number(f[1]);
    }
  };
  child.stdout.on("data", (c) => scan(c, process.stdout));
  child.stderr.on("data", (c) => scan(c, process.stderr));
  child.on("close", (code) => {
    if (!sawSummary) fail = Math.max(fail, 1);
    console.log(`${pass} passed, ${fail} failed`);
    process.exit(code === 0 && fail === 0 && sawSummary ? 0 : 1);
  });
}

function handOver(args) {
  const child = spawn(bun, args, { cwd: root, stdio: "inherit" });
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
  child.on("close", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

const [command, ...rest] = process.argv.slice(2);
ensureDeps();
switch (command) {
  case "start":
    handOver(["apps/cli/src/main.ts", "serve", ...rest]);
    break;
  case "test":
    runTests(rest);
    break;
  case "cli":
    // The single binary's commands from a checkout, on the same data directory as `npm start`.
    handOver(["apps/cli/src/main.ts", ...rest]);
    break;
  case "try":
    handOver(["scripts/try.ts", ...rest]);
    break;
  case "bench":
    handOver(["bench/run.ts", ...rest]);
    break;
  case "build":
    handOver(["scripts/build-binary.ts", ...rest]);
    break;
  default:
    console.error("usage: node scripts/run.mjs start|test|cli|try|bench|build [args...]");
    process.exit(2);
}
