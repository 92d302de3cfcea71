import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startListeningGateway, type ListeningGateway } from "../client/support";

/**
 * The ten-line booking of docs/seller-toolkit.md runs as printed, against a gateway this test
 * starts, and books: the example a seller copies first cannot rot.
 */
const root = join(import.meta.dir, "../..");
let g: ListeningGateway;
let dir: string;
beforeAll(async () => {
  g = await startListeningGateway();
  // Inside the checkout (.tmp/ is gitignored) so the example's import resolves the workspace package.
  mkdirSync(join(root, ".tmp"), { recursive: true });
  dir = mkdtempSync(join(root, ".tmp", "example-"));
});
afterAll(async () => {
  await g.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the example booking of docs/seller-toolkit.md books an order", async () => {
  const page = readFileSync(join(root, "docs/seller-toolkit.md"), "utf8");
  const section = page.slice(page.indexOf("## A booking in ten lines"));
  const code = section.match(/```ts\n([\s\S]*?)```/)![1]!;
  expect(code).toContain('from "@ndc-gateway/client"');
  expect(code.split("\n").filter((l) => l.trim() && !l.startsWith("import")).length).toBeLessThanOrEqual(10);
  const file = join(dir, "example.ts");
  writeFileSync(file, code);
  const proc = Bun.spawn([process.execPath, file], {
    cwd: root,
    env: { ...process.env, NDC_BASE_URL: g.url, NDC_CLIENT_ID: g.clientId, NDC_CLIENT_SECRET: g.clientSecret },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code_] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  expect(err).toBe("");
  expect(code_).toBe(0);
  expect(out).toMatch(/^booked ORD-[0-9A-F]{12}: BOOKED\n$/);
}, 60_000);
