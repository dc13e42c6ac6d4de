/** What the database drivers (mysql2, better-sqlite3) report, told apart by code: which failures mean what. */
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
