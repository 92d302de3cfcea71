// Commission agreements: owned by @ndc/payments with the rest of the payment domain (decision 0011).
// The ledger's tables (payments.ts) are still in @ndc/store until the write path's rewrite moves them.
export * from "./commission";
