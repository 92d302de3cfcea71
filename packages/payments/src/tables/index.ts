// Commission agreements: owned by @ndc/payments with the rest of the payment domain (decision 0011).
// The ledger's tables (payments.ts) are still in @ndc/store until the write path's rewrite moves them.
export * from "./commission";
// The 3-D Secure results kept with card legs (PAY3D2).
export * from "./card-authentications";
