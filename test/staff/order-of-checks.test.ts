import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { STAFF_ROUTES } from "../../apps/gateway/src/staff/api";
import { staffWorld, type Session, type StaffWorld } from "./support";

/**
 * Issue 21 item 6: every call of the staff JSON API answers the same bad request the same way,
 * in the one order docs/staff-api.md "Order of checks" gives: path (404), method (405 with
 * Allow, before anything about the caller), origin (403), session (401), CSRF token (403), body
 * (400). The calls are read from the documentation's table, so a call the code serves and the
 * page does not list (or the reverse) fails here too.
 */
interface Call {
  method: string;
  path: string;
  body: boolean;
}

/** The Calls table of docs/staff-api.md: `METHOD /staff/api/...` (`.../x`: the same path ending in x), and whether a body is documented. */
function documentedCalls(): Call[] {
  const calls: Call[] = [];
  for (const line of readFileSync("docs/staff-api.md", "utf8").split("\n")) {
    const cells = line.split(" | ");
    const first = /^\| `(GET|POST|DELETE) (\/staff\/api\/[^`?]*)[^`]*`(.*)$/.exec(cells[0] ?? "");
    if (!first) continue;
    const [, method, path, more] = first as unknown as [string, string, string, string];
    const body = (cells[1] ?? "").startsWith("`{");
    calls.push({ method, path, body });
    for (const [, tail] of more.matchAll(/`\.\.\.\/([a-z-]+)`/g)) calls.push({ method, path: path.replace(/[^/]+$/, tail!), body });
  }
  return calls;
}

const CALLS = documentedCalls();
/** A path with its ids filled: a seq is a number, any other id a valid one no store holds. */
const concrete = (path: string) => path.replace(/\{seq\}/g, "1").replace(/\{[A-Za-z]+\}/g, "X-1");
/** The same path with its first id outside every id's pattern (65 characters). */
const badId = (path: string) => path.replace(/\{[A-Za-z]+\}/, "x".repeat(65));
const allowOf = (path: string) => CALLS.filter((c) => c.path === path).map((c) => c.method).sort().join(", ");
const isLogin = (c: Call) => c.method === "POST" && c.path === "/staff/api/session";

let w: StaffWorld;
let s: Session;

beforeAll(async () => {
  w = await staffWorld();
  await w.addStaff("sue", "supervisor");
  s = await w.login("sue");
}, 60_000);
afterAll(() => w.t.close());

/** Status, error code and Allow (its methods sorted: their order means nothing). */
const answer = async (res: Response) => [res.status, ((await res.json()) as { error: string }).error, res.headers.get("allow")?.split(", ").sort().join(", ") ?? null];

test("the documented calls are the ones the API declares", () => {
  const documented = CALLS.map((c) => `${c.method} ${c.path.replace(/\{[A-Za-z]+\}/g, ":")}`).sort();
  const declared = STAFF_ROUTES.map((r) => `${r.method} /staff/api${r.path.replace(/:[A-Za-z]+/g, ":")}`).sort();
  expect(documented).toEqual(declared);
  expect(CALLS.length).toBeGreaterThan(50);
});

describe("every call, the same bad request, the same answer", () => {
  test("an unknown path, or an id outside its pattern, is 404 whatever the method and the session", async () => {
    for (const m of ["GET", "POST", "PATCH"]) expect(await answer(await w.t.fetch("/staff/api/nope", { method: m }))).toEqual([404, "not_found", null]);
    for (const c of CALLS.filter((c) => c.path.includes("{"))) {
      expect([c.method, c.path, ...(await answer(await w.t.fetch(badId(c.path), { method: c.method })))]).toEqual([c.method, c.path, 404, "not_found", null]);
      expect([c.path, ...(await answer(await s.call(badId(c.path), { method: "PATCH" })))]).toEqual([c.path, 404, "not_found", null]);
    }
  });

  test("a served path asked with another method is 405 naming the methods it has, before the session is looked at", async () => {
    for (const c of CALLS) {
      const expected = [c.path, 405, "method_not_allowed", allowOf(c.path)];
      expect([c.path, ...(await answer(await w.t.fetch(concrete(c.path), { method: "PATCH" })))]).toEqual(expected);
      expect([c.path, ...(await answer(await s.call(concrete(c.path), { method: "PUT" })))]).toEqual(expected);
      // HEAD is not GET here: it would run the GET's action and write its audit row.
      if (c.method === "GET") expect([c.path, (await w.t.fetch(concrete(c.path), { method: "HEAD" })).status]).toEqual([c.path, 405]);
    }
  });

  test("a state-changing call from another site's page is 403 before the session is looked at, the login included", async () => {
    for (const c of CALLS.filter((c) => c.method !== "GET")) {
      const res = await w.t.fetch(concrete(c.path), { method: c.method, headers: { origin: "https://evil.example", "content-type": "application/json" }, body: "{}" });
      expect([c.method, c.path, ...(await answer(res))]).toEqual([c.method, c.path, 403, "staff_csrf_invalid", null]);
    }
  });

  test("without the session cookie every call but the login is 401, a bad body or not", async () => {
    for (const c of CALLS.filter((c) => !isLogin(c))) {
      const res = await w.t.fetch(concrete(c.path), { method: c.method, ...(c.method === "GET" ? {} : { headers: { "content-type": "application/json" }, body: "[1]" }) });
      expect([c.method, c.path, ...(await answer(res))]).toEqual([c.method, c.path, 401, "staff_session_required", null]);
    }
  });

  test("with the session but without its CSRF token every state-changing call is 403, a bad body or not", async () => {
    for (const c of CALLS.filter((c) => c.method !== "GET" && !isLogin(c))) {
      expect([c.method, c.path, ...(await answer(await s.call(concrete(c.path), { method: c.method, body: [1], csrf: null })))]).toEqual([c.method, c.path, 403, "staff_csrf_invalid", null]);
    }
    expect((await s.call("/staff/api/session")).status).toBe(200);
  });

  test("with the session and its token, a body that is not a JSON object is 400 on every call that takes a body, the login included", async () => {
    const withBody = CALLS.filter((c) => c.body);
    expect(withBody.length).toBeGreaterThan(30);
    for (const c of withBody) {
      expect([c.method, c.path, ...(await answer(await s.call(concrete(c.path), { method: c.method, body: [1] })))]).toEqual([c.method, c.path, 400, "request_invalid", null]);
      expect([c.method, c.path, ...(await answer(await s.call(concrete(c.path), { method: c.method, body: "text" })))]).toEqual([c.method, c.path, 400, "request_invalid", null]);
    }
  });
});
