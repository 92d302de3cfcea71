#!/usr/bin/env node
// `npm run schemas`: downloads IATA's NDC 24.4 schema package (scripts/ndc-schemas.mjs), checks its
// SHA-256, and installs its XSDs into .ndc-schemas/24.4 (git-ignored), where the tests look for
// them after NDC_SCHEMA_DIR and ../shared/ndc-schemas/24.4 (docs/schemas.md).
//
// NDC_SCHEMAS_URL, NDC_SCHEMAS_SHA256 and NDC_SCHEMAS_DEST replace the pinned address, hash and
// folder (the test serves a package it builds; an operator may mirror IATA's package). Nothing is
// installed unless the download's SHA-256 equals the pinned one or the one NDC_SCHEMAS_SHA256 names.
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { inflateRawSync } from "node:zlib";
import { FETCHED_DIR, MARKER, SCHEMA_PACKAGE } from "./ndc-schemas.mjs";

const MAX_PACKAGE_BYTES = 64 * 1024 * 1024;
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

function fail(message) {
  console.error(`npm run schemas: ${message}`);
  process.exit(1);
}

async function download(url) {
  const res = await fetch(url, { redirect: "follow", signal: AbortSignal.timeout(120_000) }).catch((e) => fail(`${url}: ${e.message}`));
  if (res.status !== 200) fail(`${url} answered ${res.status}`);
  const chunks = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > MAX_PACKAGE_BYTES) fail(`${url}: larger than ${MAX_PACKAGE_BYTES} bytes, not a schema package`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The files of a zip archive (stored or deflated), from its central directory. */
function unzip(zip) {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) fail("the download is not a zip archive");
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const files = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) fail("the zip archive's central directory is damaged");
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    at += 46 + nameLength + extra;
    if (name.endsWith("/")) continue;
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    if (method !== 0 && method !== 8) fail(`${name}: compression method ${method} is not supported`);
    files.push({ name, read: () => (method === 8 ? inflateRawSync(data) : data) });
  }
  return files;
}

/**
 * The 24.4 XSDs of the package: every XSD of the folder holding the common types, and the
 * payment clearance and xmldsig schemas wherever the package keeps them.
 */
function pick(files) {
  const homes = files.filter((f) => basename(f.name) === MARKER).map((f) => dirname(f.name));
  if (homes.length === 0) fail(`the package has no ${MARKER}`);
  if (homes.length > 1) fail(`the package has ${MARKER} in ${homes.length} folders (${homes.join(", ")}); give NDC_SCHEMAS_URL a package of one release`);
  const wanted = (f) => f.name.endsWith(".xsd") && (dirname(f.name) === homes[0] || /^(IATA_PaymentClearance\w*|xmldsig-core-schema)\.xsd$/.test(basename(f.name)));
  return files.filter(wanted);
}

/**
 * xmldsig's schema names the W3C's XMLSchema.dtd in its DOCTYPE, which xmllint --nonet cannot
 * load: the external identifier goes, the internal subset (its entities) stays.
 */
function offline(name, text) {
  if (basename(name) !== "xmldsig-core-schema.xsd") return text;
  return text.replace(/<!DOCTYPE\s+([\w:]+)\s+(?:PUBLIC\s+"[^"]*"\s+"[^"]*"|SYSTEM\s+"[^"]*")/, "<!DOCTYPE $1");
}

const url = process.env.NDC_SCHEMAS_URL || SCHEMA_PACKAGE.url;
// The pinned hash belongs to the pinned address only.
const expected = (process.env.NDC_SCHEMAS_SHA256 || (url === SCHEMA_PACKAGE.url ? SCHEMA_PACKAGE.sha256 : null) || "").toLowerCase() || null;
const dest = resolve(root, process.env.NDC_SCHEMAS_DEST || FETCHED_DIR);

console.error(`Downloading IATA's NDC ${SCHEMA_PACKAGE.release} schema package from ${url} ...`);
const zip = await download(url);
const sha256 = createHash("sha256").update(zip).digest("hex");
if (!expected) {
  fail(
    `nothing pins this package's SHA-256 yet, so it is not installed. Its SHA-256 is ${sha256}. Check the package against IATA's download page (${SCHEMA_PACKAGE.page}), then run again with NDC_SCHEMAS_SHA256=${sha256} to install it (and pin that value in scripts/ndc-schemas.mjs).`,
  );
}
if (sha256 !== expected) fail(`SHA-256 mismatch: expected ${expected}, the download has ${sha256}; nothing installed.`);

const xsds = pick(unzip(zip));
const partial = `${dest}.partial-${process.pid}`;
rmSync(partial, { recursive: true, force: true });
mkdirSync(partial, { recursive: true });
for (const f of xsds) writeFileSync(join(partial, basename(f.name)), offline(f.name, f.read().toString("utf8")));
rmSync(dest, { recursive: true, force: true });
mkdirSync(dirname(dest), { recursive: true });
renameSync(partial, dest);
console.log(`installed ${xsds.length} schemas into ${dest} (package SHA-256 ${sha256})`);
