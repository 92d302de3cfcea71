import { afterAll, beforeAll, expect, test } from "bun:test";
import { GatewayError } from "@ndc/errors";
import { c, el } from "@ndc/xml";
import { redact } from "@ndc/log";
import type { MessageHandler } from "@ndc/messages";
import { errorCode, startTestGateway, type TestGateway } from "../support/gateway";
import { ndcRequest } from "../support/requests";
import { unavailableOr } from "../../packages/store/src/errors";

// Handlers standing in for business messages, to drive the pipeline's answer paths.
const handlers = new Map<string, MessageHandler>([
  ["OrderRetrieveRQ", () => { throw new Error("disk /var/secret/internal.db corrupted at offset 42"); }],
  ["OrderListRQ", () => { throw new GatewayError("order_not_found", { element: "Request/OrderFilterCriteria" }); }],
  ["OrderHistoryRQ", () => { throw new GatewayError("actor_busy"); }],
  // What the PostgreSQL store raises when its server cannot be reached (decision 0041): a real
  // refused connection of Bun.SQL, mapped by the store's one rule.
  ["OrderReshopRQ", async () => { throw unavailableOr(await new Bun.SQL({ url: "postgres://nobody@127.0.0.1:1/none", connectionTimeout: 2 }).unsafe("SELECT 1").then(() => "connected?", (e: unknown) => e)); }],
  ["OrderRulesRQ", () => ({ document: "<?xml version=\"1.0\"?><stored/>", status: 201 })],
  ["OrderQuoteRQ", () => { throw new GatewayError("internal_error", { detail: "saga SGC00 in state nobody expected" }); }],
  ["ServiceListRQ", ({ seller }) => ({ response: el("Response", null, c("Warning", c("Code", "x"), c("DescText", seller.agencyId), c("LangCode", "EN"))) })],
]);

let t: TestGateway;
beforeAll(async () => {
  t = await startTestGateway({}, undefined, handlers);
});
afterAll(() => t.close());

test("an unexpected failure is 500 internal_error quoting the request id, internals only in the log", async () => {
  t.logs.length = 0;
  const r = await t.ndc("OrderRetrieveRQ", ndcRequest("OrderRetrieveRQ"));
  expect(r.status).toBe(500);
  expect(errorCode(r.body)).toBe("internal_error");
  const rid = r.headers.get("x-request-id")!;
  expect(rid).toBeString();
  expect(r.body).toContain(rid);
  expect(r.body).not.toContain("/var/secret");
  expect(r.body).not.toContain("corrupted");
  const logged = t.logs.map((l) => JSON.parse(l)).find((l) => l.event === "unhandled");
  expect(logged.requestId).toBe(rid);
  expect(logged.error).toContain("corrupted");
});

test("an internal_error raised by a step is logged like any unexpected failure, never a silent 500", async () => {
  t.logs.length = 0;
  const r = await t.ndc("OrderQuoteRQ", ndcRequest("OrderQuoteRQ"));
  expect(r.status).toBe(500);
  expect(errorCode(r.body)).toBe("internal_error");
  const rid = r.headers.get("x-request-id")!;
  expect(r.body).toContain(`Request id ${rid}.`);
  expect(r.body).not.toContain("nobody expected");
  const logged = t.logs.map((l) => JSON.parse(l)).filter((l) => l.level === "error");
  expect(logged.map((l) => [l.event, l.requestId, l.message])).toEqual([["unhandled", rid, "OrderQuoteRQ"]]);
  expect(logged[0].error).toContain("nobody expected");
});

test("a domain refusal carries its catalogue status, code and element", async () => {
  const r = await t.ndc("OrderListRQ", ndcRequest("OrderListRQ"));
  expect(r.status).toBe(404);
  expect(errorCode(r.body)).toBe("order_not_found");
  expect(r.body).toContain("<cns:TagText>Request/OrderFilterCriteria</cns:TagText>");
});

test("a full mailbox is 503 actor_busy", async () => {
  const r = await t.ndc("OrderHistoryRQ", ndcRequest("OrderHistoryRQ"));
  expect(r.status).toBe(503);
  expect(errorCode(r.body)).toBe("actor_busy");
});

test("a database out of reach is 503 store_unavailable with Retry-After, never a 500", async () => {
  const r = await t.ndc("OrderReshopRQ", ndcRequest("OrderReshopRQ"));
  expect([r.status, errorCode(r.body), r.headers.get("retry-after")]).toEqual([503, "store_unavailable", "1"]);
});

test("a handler's Response is wrapped in the paired root with the simulated-supply flag, and sees the seller", async () => {
  const r = await t.ndc("ServiceListRQ", ndcRequest("ServiceListRQ", { correlationId: "ok-1" }));
  expect(r.status).toBe(200);
  expect(r.body).toContain("<gw:SimulatedSupply");
  expect(r.body).toContain(`<cns:DescText>${t.gw.sandbox!.agency_id}</cns:DescText>`);
});

test("the log redaction list drops personal data at any depth", () => {
  const out = redact({ ok: 1, IdentityDocID: "P123", nested: { card_number: "4111", list: [{ Surname: "Smith", keep: "x" }] } }) as any;
  expect(out).toEqual({ ok: 1, IdentityDocID: "[redacted]", nested: { card_number: "[redacted]", list: [{ Surname: "[redacted]", keep: "x" }] } });
});

test("a handler may answer a stored document as it is (idempotent replay), status included", async () => {
  const res = await t.gw.app.handle(
    new Request("http://localhost/24.4/OrderRulesRQ", {
      method: "POST",
      headers: { "content-type": "application/xml", "iata-message-name": "IATA_OrderRulesRQ", "x-api-key": t.gw.sandbox!.api_key },
      body: ndcRequest("OrderRulesRQ"),
    }),
  );
  expect(res.status).toBe(201);
  expect(await res.text()).toBe('<?xml version="1.0"?><stored/>');
  expect(res.headers.get("x-simulated-supply")).toBe("true");
});
