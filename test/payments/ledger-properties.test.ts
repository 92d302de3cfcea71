import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { GatewayError } from "@ndc/errors";
import { tables } from "@ndc/store";
import { issueCertificate, verifyChain, type LegRequest, type PaymentLeg } from "@ndc/payments";
import { eur, harness, refundAsSagasDo, releaseAsSagasDo, type Harness } from "./helpers";
import { checkInvariants, snapshot } from "./invariants";

// Random sequences of authorise / capture / void / refund / order refund / PSP resolution and
// retries with an earlier key, across every leg kind, against a real store.

let h: Harness;
beforeAll(async () => {
  h = await harness("payments-props");
});
afterAll(async () => {
  await h.close();
});

const TOKENS = ["tok_approve_visa", "tok_approve_mastercard", "tok_decline", "tok_timeout_after_success"];

type Op =
  | { t: "auth"; kind: 0 | 1 | 2 | 3; amount: number; token: number; cert: number }
  | { t: "capture"; leg: number; part: number }
  | { t: "void"; leg: number }
  | { t: "refund"; leg: number; part: number }
  | { t: "orderRefund"; amount: number }
  | { t: "resolve"; leg: number }
  | { t: "retry"; of: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant("auth" as const), kind: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>, amount: fc.integer({ min: 1, max: 4000 }), token: fc.nat(3), cert: fc.nat(2) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("capture" as const), leg: fc.nat(9), part: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("void" as const), leg: fc.nat(9) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant("refund" as const), leg: fc.nat(9), part: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("orderRefund" as const), amount: fc.integer({ min: 1, max: 3000 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant("resolve" as const), leg: fc.nat(9) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant("retry" as const), of: fc.nat(40) }) },
);

let run = 0;

test("ledger invariants hold and retries change nothing, over random sequences", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(opArb, { minLength: 5, maxLength: 22 }),
      fc.record({ voucher: fc.integer({ min: 0, max: 6000 }), points: fc.integer({ min: 0, max: 8000 }), limit: fc.integer({ min: 0, max: 8000 }) }),
      async (ops, start) => {
        run++;
        const orderId = `PROP-${run}`;
        const voucher = `VCH-PROP-${run}`;
        const member = `XB9${String(run).padStart(9, "0")}`;
        const account = `SA-PROP-${run}`;
        const agency = `AG-PROP-${run}`;
        await h.store.write(async (tx) => {
          await tx.insert(tables.vouchers).values({ code: voucher, currency: "EUR", balance: start.voucher, expiresAt: h.clock.now() + 86_400_000 });
          await tx.insert(tables.loyaltyAccounts).values({ memberAccount: member, programme: "XB", points: start.points });
          await tx.insert(tables.settlementAccounts).values({ accountId: account, agencyId: agency, method: "CA", currency: "EUR", creditLimit: start.limit });
        });
        const certs = [0, 1, 2].map((i) => `CERT-PROP-${run}-${i}`);
        for (const id of certs) await issueCertificate(h.store, { certificateId: id, memberAccount: member, points: 3000, expiresAt: h.clock.now() + 86_400_000, issuedAt: h.clock.now() });
        const initial = { voucher, voucherBalance: start.voucher, member, memberPoints: start.points, account };

        const legIds: string[] = [];
        const done: { call: () => Promise<unknown>; result: unknown }[] = [];
        const legAt = (i: number) => legIds[i % Math.max(1, legIds.length)];
        const leg = async (i: number): Promise<PaymentLeg | undefined> => (legIds.length ? h.payments.ledger.leg(legAt(i)!) : undefined);

        for (const [i, op] of ops.entries()) {
          const key = `${orderId}/op/${i}`;
          let call: (() => Promise<unknown>) | undefined;
          if (op.t === "auth") {
            const amount = eur(op.amount);
            const req: LegRequest = [
              { kind: "card", token: TOKENS[op.token]!, amount },
              { kind: "voucher", code: voucher, amount },
              { kind: "settlement", agencyId: agency, amount },
              { kind: "loyalty", programme: "XB", memberAccount: member, certificateId: certs[op.cert]!, amount },
            ][op.kind] as LegRequest;
            call = async () => {
              const out = await h.payments.ledger.authorise(orderId, `chg-${i}`, req, key);
              if (!legIds.includes(out.leg.legId)) legIds.push(out.leg.legId);
              return out;
            };
          } else if (op.t === "capture" || op.t === "refund") {
            const l = await leg(op.leg);
            if (!l) continue;
            const base = op.t === "capture" ? l.authorised : l.captured - l.refunded;
            const amount = Math.max(1, Math.floor((base * op.part) / 4));
            // A refund goes the way the sagas pay one back (RefundPayments' phases), never a ledger shortcut.
            call = op.t === "capture" ? () => h.payments.ledger.capture(l.legId, key, amount) : releaseAsSagasDo(h.payments, key, async () => [{ legId: l.legId, amount }]);
          } else if (op.t === "void") {
            const l = await leg(op.leg);
            if (!l) continue;
            call = () => h.payments.ledger.void(l.legId, key);
          } else if (op.t === "resolve") {
            const l = await leg(op.leg);
            if (!l) continue;
            call = () => h.payments.ledger.resolveUnknown(l.legId);
          } else if (op.t === "orderRefund") {
            call = refundAsSagasDo(h.payments, orderId, eur(op.amount), key);
          } else {
            const earlier = done[op.of % Math.max(1, done.length)];
            if (!earlier) continue;
            const before = await snapshot(h.store);
            expect(await earlier.call()).toEqual(earlier.result);
            expect(await snapshot(h.store)).toEqual(before);
            continue;
          }
          try {
            const result = await call();
            // An "unknown" (PSP timeout) is not an answer yet: a retry with its key is meant to
            // find the authorisation, so only final answers must replay unchanged.
            const final = op.t !== "resolve" && (result as { status?: string }).status !== "unknown";
            if (final) done.push({ call, result });
          } catch (e) {
            if (!(e instanceof GatewayError)) throw e;
          }
          await checkInvariants(h.store, orderId, initial);
        }
        expect((await verifyChain(h.store.db)).ok).toBe(true);
      },
    ),
    { numRuns: 100 },
  );
}, 60_000);
