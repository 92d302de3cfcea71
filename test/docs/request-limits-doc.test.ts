import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { TEXT_LIMITS } from "@ndc/xml";

/** docs/messages/request-limits.md lists TEXT_LIMITS exactly: one row per distinct limit, elements grouped. */
test("the text-limits table of docs/messages/request-limits.md is the code's", () => {
  const groups = new Map<string, string[]>();
  for (const [name, l] of Object.entries(TEXT_LIMITS)) {
    const key = `${l.type} | ${l.maxLength} | ${l.shape ?? "any text"}${l.maxOccurs ? `; at most ${l.maxOccurs}` : ""} | ${l.xsd ? "schema" : "gateway"}`;
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  const rows = [...groups].map(([k, names]) => `| ${names.map((n) => `\`${n}\``).join(", ")} | ${k} |`);
  const doc = readFileSync(resolve(import.meta.dir, "../../docs/messages/request-limits.md"), "utf8");
  const table = doc.slice(doc.indexOf("<!-- text-limits:begin"), doc.indexOf("<!-- text-limits:end"));
  expect(table.split("\n").filter((l) => l.startsWith("| `"))).toEqual(rows);
});
