// The store's public face: import from 'gateway/store' rather than the files inside.
export type { Queryable, QueryResult, Store, StoreOptions } from './store';
export { createStore } from './create-store';
export { storeOptionsFromEnv, describeStore, DEFAULT_DATA_DIR } from './store-config';
export { runMigrations, loadMigrations, MIGRATIONS_DIR, MigrationError } from './migrations';
export { DataDirInUseError } from './data-dir-lock';
export { isUniqueViolation, isForeignKeyViolation, isCheckViolation } from './sql-errors';
export { openGatewayStore, seedingEnabled } from './open-gateway-store';
export { countingStore, type CountingStore } from './counting-store';
