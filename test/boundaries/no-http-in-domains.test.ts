import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { GatewayError } from "@ndc/errors";

/**
 * Issue 8, section 2: a domain error carries a wire code, the element at fault and typed facts
 * (retryAfterSeconds, challenge, allowedMethods), never an HTTP status or header. The edge maps
 * them in one place (apps/gateway/src/http/error-mapping.ts). This scan keeps HTTP from coming
 * back into packages/.
 */
const root = join(import.meta.dir, "../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (name === "node_modules") return [];
    // packages/client is the seller's HTTP client (@ndc-gateway/client), not a domain: headers are its job.
    if (p === join(root, "packages", "client")) return [];
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith(".ts") ? [p] : [];
  });
}

/** The argument text of every `new GatewayError(...)` call, parentheses balanced. */
function constructions(text: string): string[] {
  const out: string[] = [];
  for (let i = text.indexOf("new GatewayError("); i !== -1; i = text.indexOf("new GatewayError(", i + 1)) {
    let depth = 0;
    let j = i + "new GatewayError".length;
    for (; j < text.length; j++) {
      if (text[j] === "(") depth++;
      else if (text[j] === ")" && --depth === 0) break;
    }
    out.push(text.slice(i, j + 1));
  }
  return out;
}

// Header names an error used to carry, as string literals ("Retry-After", 'www-authenticate').
// ("allow" is too common a word to scan for; an Allow header set on an error is caught as `headers:`.)
const HEADER_LITERAL = /["'`](retry-after|www-authenticate)["'`]/i;
const HTTP_OPTION = /\b(status|headers)\s*:/;

function httpInDomains(files: { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    for (const call of constructions(text)) if (HTTP_OPTION.test(call)) found.push(`${path}: ${call.slice(0, 120)}`);
    const literal = HEADER_LITERAL.exec(text);
    if (literal) found.push(`${path}: header name ${literal[0]}`);
    if (/extends GatewayError\b/.test(text)) found.push(`${path}: a GatewayError subclass (one error class, one mapping)`);
  }
  return found;
}

describe("domain errors carry no HTTP", () => {
  const files = sources(join(root, "packages")).map((p) => ({ path: relative(root, p), text: readFileSync(p, "utf8") }));

  test("the scan reads the packages (a scan of nothing proves nothing)", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => f.text.includes("new GatewayError(")).length).toBeGreaterThan(30);
  });

  test("no GatewayError in packages/ is given a status or headers, and no package names an error's header", () => {
    expect(httpInDomains(files)).toEqual([]);
  });

  test("the scan finds each way HTTP could come back", () => {
    const planted = [
      `throw new GatewayError("actor_busy", { detail: "x", headers: { "Retry-After": "1" } });`,
      `throw new GatewayError("order_not_found", {\n  status: 410,\n});`,
      `const h = { "www-authenticate": challenge };`,
      `class Busy extends GatewayError {}`,
    ];
    for (const text of planted) expect(httpInDomains([{ path: "planted.ts", text }]).length).toBeGreaterThan(0);
    expect(httpInDomains([{ path: "clean.ts", text: `new GatewayError("actor_busy", { detail: \`(\${f(x)})\`, retryAfterSeconds: 1 })` }])).toEqual([]);
  });

  test("a GatewayError has no status or headers of its own, only code, detail, element and facts", () => {
    const e = new GatewayError("rate_limited", { retryAfterSeconds: 7, element: "X", detail: "d" });
    expect(Object.keys(e).sort()).toEqual(["allowedMethods", "challenge", "code", "detail", "element", "name", "retryAfterSeconds"]);
    expect("status" in e).toBe(false);
    expect("headers" in e).toBe(false);
  });
});
