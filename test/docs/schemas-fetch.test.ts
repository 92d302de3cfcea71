import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { FETCHED_DIR, findSchemaDir, MARKER } from "../../scripts/ndc-schemas.mjs";

/**
 * Issue 19 item 21: `npm run schemas` (scripts/schemas.mjs, run by Node as npm runs it) against a
 * local file server serving a package built here, and where the tests look for IATA's schemas.
 * The package holds small schemas of our own, laid out as IATA's is (one folder per domain, the W3C
 * xmldsig schema with its DTD reference), so the installed set is checked with xmllint for real.
 */
const ROOT = join(import.meta.dir, "../..");
const dir = mkdtempSync(join(tmpdir(), "ndc-schemas-"));

// --- a zip archive (deflated entries), as IATA publishes its package ---
const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(b: Uint8Array): number {
  let c = 0xffffffff;
  for (const x of b) c = CRC[(c ^ x) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function zip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const raw = Buffer.from(text);
    const data = deflateRawSync(raw);
    const n = Buffer.from(name);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(crc32(raw), 14);
    head.writeUInt32LE(data.length, 18);
    head.writeUInt32LE(raw.length, 22);
    head.writeUInt16LE(n.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(raw), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(n.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(head, n, data);
    centrals.push(central, n);
    offset += head.length + n.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const XS = 'xmlns:xs="http://www.w3.org/2001/XMLSchema"';
const CNS = "urn:test:common";
const PACKAGE = zip({
  "24.4 XML and API/OffersAndOrders/IATA_OffersAndOrdersCommonTypes.xsd": `<xs:schema ${XS} targetNamespace="${CNS}" xmlns="${CNS}" elementFormDefault="qualified"><xs:import namespace="http://www.w3.org/2000/09/xmldsig#" schemaLocation="xmldsig-core-schema.xsd"/><xs:simpleType name="CodeType"><xs:restriction base="xs:string"><xs:maxLength value="3"/></xs:restriction></xs:simpleType><xs:element name="Code" type="CodeType"/></xs:schema>`,
  "24.4 XML and API/OffersAndOrders/IATA_PingRQ.xsd": `<xs:schema ${XS} xmlns:cns="${CNS}" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" targetNamespace="urn:test:message" elementFormDefault="qualified"><xs:import namespace="${CNS}" schemaLocation="IATA_OffersAndOrdersCommonTypes.xsd"/><xs:import namespace="http://www.w3.org/2000/09/xmldsig#" schemaLocation="xmldsig-core-schema.xsd"/><xs:element name="IATA_PingRQ"><xs:complexType><xs:sequence><xs:element ref="cns:Code"/><xs:element ref="ds:Signature" minOccurs="0"/></xs:sequence></xs:complexType></xs:element></xs:schema>`,
  "24.4 XML and API/PaymentClearance/IATA_PaymentClearanceRQ.xsd": `<xs:schema ${XS} targetNamespace="urn:test:clearance"><xs:element name="IATA_PaymentClearanceRQ" type="xs:string"/></xs:schema>`,
  "24.4 XML and API/Common/xmldsig-core-schema.xsd": `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE schema PUBLIC "-//W3C//DTD XMLSchema 200102//EN" "http://www.w3.org/2001/XMLSchema.dtd" [\n<!ENTITY dsig 'http://www.w3.org/2000/09/xmldsig#'>\n]>\n<xs:schema ${XS} targetNamespace="&dsig;" elementFormDefault="qualified"><xs:element name="Signature" type="xs:string"/></xs:schema>`,
  "24.4 XML and API/Baggage/IATA_BagRQ.xsd": `<xs:schema ${XS} targetNamespace="urn:test:bag"/>`,
  "24.4 XML and API/readme.txt": "IATA Data Exchange Standards 24.4 (a test package)",
});
const SHA = createHash("sha256").update(PACKAGE).digest("hex");

let server: ReturnType<typeof Bun.serve>;
let base: string;
beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: (req) => {
      const path = new URL(req.url).pathname;
      // IATA's download page answers with a redirect to its file store.
      if (path === "/download/24.4.zip") return Response.redirect(`${base}/files/24.4.zip`, 302);
      if (path === "/files/24.4.zip") return new Response(new Uint8Array(PACKAGE), { headers: { "content-type": "application/zip" } });
      return new Response("not found", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => {
  server.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

/** `npm run schemas` is `node scripts/schemas.mjs`: run the same, with the test's overrides. */
async function fetchSchemas(env: Record<string, string>) {
  const proc = Bun.spawn(["node", join(ROOT, "scripts/schemas.mjs")], { cwd: ROOT, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

function xmllint(xsd: string, xml: string): boolean {
  const file = join(dir, `doc-${Math.random().toString(36).slice(2)}.xml`);
  writeFileSync(file, xml);
  return Bun.spawnSync(["xmllint", "--noout", "--nonet", "--schema", xsd, file], { stderr: "pipe" }).exitCode === 0;
}

describe("npm run schemas", () => {
  const dest = join(dir, "installed");

  test("with the package's SHA-256: its 24.4 schemas installed, xmldsig's DTD reference removed, usable by xmllint --nonet", async () => {
    const r = await fetchSchemas({ NDC_SCHEMAS_URL: `${base}/download/24.4.zip`, NDC_SCHEMAS_SHA256: SHA.toUpperCase(), NDC_SCHEMAS_DEST: dest });
    expect(r.stderr).toBe(`Downloading IATA's NDC 24.4 schema package from ${base}/download/24.4.zip ...\n`);
    expect(r.stdout).toBe(`installed 4 schemas into ${dest} (package SHA-256 ${SHA})\n`);
    expect(r.code).toBe(0);
    expect(readdirSync(dest).sort()).toEqual(["IATA_OffersAndOrdersCommonTypes.xsd", "IATA_PaymentClearanceRQ.xsd", "IATA_PingRQ.xsd", "xmldsig-core-schema.xsd"]);
    const dsig = readFileSync(join(dest, "xmldsig-core-schema.xsd"), "utf8");
    expect(dsig).toContain("<!DOCTYPE schema [");
    expect(dsig).not.toContain("XMLSchema.dtd");
    const ping = join(dest, "IATA_PingRQ.xsd");
    expect(xmllint(ping, `<IATA_PingRQ xmlns="urn:test:message"><Code xmlns="${CNS}">ABC</Code><Signature xmlns="http://www.w3.org/2000/09/xmldsig#">s</Signature></IATA_PingRQ>`)).toBe(true);
    expect(xmllint(ping, `<IATA_PingRQ xmlns="urn:test:message"><Code xmlns="${CNS}">ABCD</Code></IATA_PingRQ>`)).toBe(false);
    expect(findSchemaDir(ROOT, { NDC_SCHEMA_DIR: dest })).toBe(dest);
  }, 60_000);

  test("a download whose SHA-256 differs is refused and the installed schemas are left as they were", async () => {
    const before = readdirSync(dest).map((f) => readFileSync(join(dest, f), "utf8"));
    const wrong = "0".repeat(64);
    const r = await fetchSchemas({ NDC_SCHEMAS_URL: `${base}/files/24.4.zip`, NDC_SCHEMAS_SHA256: wrong, NDC_SCHEMAS_DEST: dest });
    expect(r.code).toBe(1);
    expect(r.stderr).toEndWith(`npm run schemas: SHA-256 mismatch: expected ${wrong}, the download has ${SHA}; nothing installed.\n`);
    expect(readdirSync(dest).map((f) => readFileSync(join(dest, f), "utf8"))).toEqual(before);
    expect(readdirSync(dir).filter((f) => f.includes("partial"))).toEqual([]);
  }, 60_000);

  test("an address no hash is pinned for: refused, naming the download's SHA-256 and how to accept it", async () => {
    const fresh = join(dir, "unpinned");
    const r = await fetchSchemas({ NDC_SCHEMAS_URL: `${base}/files/24.4.zip`, NDC_SCHEMAS_DEST: fresh });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`npm run schemas: nothing pins this package's SHA-256 yet, so it is not installed. Its SHA-256 is ${SHA}.`);
    expect(r.stderr).toContain(`run again with NDC_SCHEMAS_SHA256=${SHA} to install it`);
    expect(existsSync(fresh)).toBe(false);
    const missing = await fetchSchemas({ NDC_SCHEMAS_URL: `${base}/nothing.zip`, NDC_SCHEMAS_SHA256: SHA, NDC_SCHEMAS_DEST: fresh });
    expect([missing.code, missing.stderr.trim().split("\n").at(-1)]).toEqual([1, `npm run schemas: ${base}/nothing.zip answered 404`]);
  }, 60_000);

  test("the fetched folder is git-ignored, and `npm run schemas` is this script", () => {
    expect(readFileSync(join(ROOT, ".gitignore"), "utf8").split("\n")).toContain(`${FETCHED_DIR.split("/")[0]}/`);
    expect(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.schemas).toBe("node scripts/schemas.mjs");
  });
});

describe("where the tests look", () => {
  test("NDC_SCHEMA_DIR, then ../shared/ndc-schemas/24.4, then the fetched folder; a folder counts only with the common types", () => {
    const repo = join(dir, "tree", "repo");
    const own = join(dir, "tree", "own");
    const shared = join(dir, "tree", "shared/ndc-schemas/24.4");
    const fetched = join(repo, FETCHED_DIR);
    for (const d of [own, shared, fetched]) {
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, MARKER), "<x/>");
    }
    expect(findSchemaDir(repo, { NDC_SCHEMA_DIR: own })).toBe(own);
    expect(findSchemaDir(repo, { NDC_SCHEMA_DIR: "../own" })).toBe(own);
    expect(findSchemaDir(repo, {})).toBe(shared);
    rmSync(join(shared, MARKER));
    expect(findSchemaDir(repo, { NDC_SCHEMA_DIR: join(dir, "nowhere") })).toBe(fetched);
    rmSync(join(fetched, MARKER));
    expect(findSchemaDir(repo, {})).toBeNull();
  });

  test("with none, XSD assertions are skipped and say so in one line, once", async () => {
    // The tests' own helper and its finder, copied into a checkout with no schemas anywhere near.
    const repo = join(dir, "bare", "repo");
    mkdirSync(join(repo, "test/support"), { recursive: true });
    mkdirSync(join(repo, "scripts"), { recursive: true });
    copyFileSync(join(ROOT, "test/support/xsd.ts"), join(repo, "test/support/xsd.ts"));
    copyFileSync(join(ROOT, "scripts/ndc-schemas.mjs"), join(repo, "scripts/ndc-schemas.mjs"));
    const script = `const m = await import(${JSON.stringify(join(repo, "test/support/xsd.ts"))});
m.assertSchemaValid("<IATA_AirShoppingRS>not valid at all</IATA_AirShoppingRS>");
m.assertSchemaValid("<IATA_OrderViewRS/>");
console.log(JSON.stringify({ dir: m.SCHEMA_DIR, ok: m.validateXml("<IATA_OrderViewRS/>").ok }));`;
    const proc = Bun.spawn([process.execPath, "-e", script], { cwd: repo, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ dir: null, ok: true });
    expect(stderr).toBe(
      `XSD checks skipped: IATA's NDC 24.4 schemas are in none of ${join(dir, "bare/shared/ndc-schemas/24.4")}, ${join(repo, FETCHED_DIR)}; run \`npm run schemas\` (or set NDC_SCHEMA_DIR) to check every message against them.\n`,
    );
  }, 30_000);
});
