// The offer store's table: only @ndc/shopping reads or writes it (decision 0011).
export * from "./offers";
export * from "./promotion-criteria";
