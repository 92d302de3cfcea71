import { expect, test } from "bun:test";
import type { AddInput } from "@ndc/orders";
import { addSaga } from "../../packages/orders/src/servicing/add/saga";

/**
 * Issue 21 item 3: an addition says who asks as `by` (servicing/actor.ts), like every other
 * servicing input. An addition left open across a deploy is retried by the new code, so its
 * operation id and fingerprint must stay what the code before `by` computed for the same request
 * (`seller` plus an optional `staffId`): the values below were computed on that code (commit
 * d441205) and are pinned; a drift would answer a retry idempotency_conflict, or run it twice.
 */
const asked = {
  orderId: "ORD1",
  correlationId: "C1",
  trxId: "T1",
  form: "services" as const,
  selections: [{ offerId: "OFF1", ownerCode: "XX", items: [{ offerItemId: "I1", paxIds: ["P1"], qty: 1, at: "x" }] }],
  payment: [],
};

test("a seller's addition keeps the operation id and fingerprint it had before `by`", () => {
  const seller = { clientId: "cli1", agencyId: "AG1" };
  const input: AddInput = { ...asked, by: { channel: "seller", seller }, offerOwner: seller, commissionAgreement: undefined };
  expect(addSaga.key(input)).toEqual({ operationId: "SGADFC6C43D92808C316CA2885E", fingerprint: "32386c859d9af93b84dd42de832c842cc4b7347bbb6dfb200db2c7e722878e96" });
});

test("a staff addition keeps the operation id and fingerprint it had before `by`", () => {
  const input: AddInput = { ...asked, trxId: "QTE-1", by: { channel: "airline_staff", staffId: "S1" }, offerOwner: { clientId: "staff:S1", agencyId: "AG1" }, alsoInCommit: async () => undefined };
  expect(addSaga.key(input)).toEqual({ operationId: "SGAB192F30913127F9429698DAA", fingerprint: "a4fad0d578d51a5cc8f33324690bc6b6f0f1643d7d2749d889557c266aa5ef81" });
});
