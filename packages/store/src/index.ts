export { openStore, type Store, type StoreDb } from "./open";
export { migrate, MIGRATIONS_DIR } from "./migrate";
export * as tables from "./tables";
