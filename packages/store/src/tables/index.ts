// One file per area; each area's SQL migration lives in schemas/migrations. Each domain package
// owns its tables in its own src/tables (registry in @ndc/auth, offers in @ndc/shopping,
// commission agreements in @ndc/payments, identity documents in @ndc/pii: decision 0011);
// the ones below are still here until the write path's rewrite moves them to their owners.
export {};
export * from "./journal";
export * from "./inventory";
export * from "./payments";
export * from "./orders";
export * from "./operations";
