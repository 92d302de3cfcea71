// `npm run bench [name]`: runs one benchmark or all of them, one after the other.
import { readdirSync } from "node:fs";
const BENCHES = ["ndc-error", "store-commit", "air-shopping", "order-create", "order-read", "memory", "notifications", "signatures", "scale-out"];
const wanted = process.argv[2];
for (const name of BENCHES.filter((b) => !wanted || b === wanted)) {
  if (!readdirSync(import.meta.dir).includes(`${name}.ts`)) continue;
  console.log(`\n=== ${name} ===`);
  const p = Bun.spawn([process.execPath, `bench/${name}.ts`], { stdout: "inherit", stderr: "inherit" });
  if ((await p.exited) !== 0) process.exit(1);
}
