/**
 * The database tools, below the ledger and knowing nothing of money: the connection (SQLite or
 * MySQL/MariaDB, its bounded waits and the SQLite checkpoint thread), the migrations runner and the
 * schema, transactions retried on deadlocks, which driver failures are transient, the group commit,
 * prepared statements and ids, and whether the server is in reach.
 */
export { openDatabase, migrateToLatest, DatabaseUrlError } from './connection.ts';
export { inTransaction } from './transaction.ts';
export { isTransient, retryTransient } from './retry.ts';
export { newCallId } from './ids.ts';
export { databaseUnreachable } from './reachability.ts';
