// One file per area; each area's SQL migration lives in schemas/migrations.
export {};
export * from "./registry";
export * from "./journal";
export * from "./offers";
export * from "./identity-documents";
export * from "./inventory";
export * from "./payments";
export * from "./orders";
export * from "./operations";
export * from "./commission";
