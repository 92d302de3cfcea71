export { openStore, type OpenOptions, type Store, type StoreDb, type WriteRaw } from "./open";
export { driverFor, type DriverName } from "./url";
export { storeErrorCode, isConstraintViolation } from "./errors";
export { splitStatements } from "./statements";
export { changeCounter } from "./data-version";
export { preparedOnce } from "./prepared-once";
export { migrate, readMigrations, MIGRATIONS_DIR, type Migration } from "./migrate";
export * as tables from "./tables";
export { commitQueue, type CommitStats, type TransactionControl } from "./commit-queue";
