// The seller registry's tables: only @ndc/auth reads or writes them (decision 0011).
export * from "./registry";
export * from "./sandbox-clocks";
export * from "./failure-budgets";
