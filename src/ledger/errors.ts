/**
 * Failure codes the ledger reports; callers (HTTP server, admin CLI) map them to their own answers.
 * `busy`: the database did not let the work through in time (locks, lost connections, no free
 * connection); nothing was charged.
 */
export type LedgerErrorCode = 'not_found' | 'invalid_input' | 'conflict' | 'busy';

export class LedgerError extends Error {
  readonly code: LedgerErrorCode;

  constructor(code: LedgerErrorCode, message: string) {
    super(message);
    this.name = 'LedgerError';
    this.code = code;
  }
}

interface DriverError {
  code?: unknown;
  errno?: unknown;
}

function driverError(error: unknown): DriverError {
  return typeof error === 'object' && error !== null ? (error as DriverError) : {};
}

/** A unique index or primary key refused a duplicate (MySQL/MariaDB or SQLite). */
export function isUniqueViolation(error: unknown): boolean {
  const { code, errno } = driverError(error);
  return code === 'ER_DUP_ENTRY' || errno === 1062 || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** A row referred to a parent that does not exist (MySQL/MariaDB or SQLite). */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code, errno } = driverError(error);
  return code === 'ER_NO_REFERENCED_ROW_2' || errno === 1452 || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** InnoDB chose this transaction as a deadlock victim; it was rolled back and may simply be run again. */
export function isDeadlock(error: unknown): boolean {
  const { code, errno } = driverError(error);
  return code === 'ER_LOCK_DEADLOCK' || errno === 1213;
}
