/**
 * Reads a timestamp column: mysql2 returns a Date (UTC, see connection.ts), better-sqlite3 returns
 * the epoch milliseconds knex stored.
 */
export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
  if (typeof value === 'string' && /^\d+$/.test(value)) return new Date(Number(value));
  if (typeof value === 'string') return new Date(value);
  throw new TypeError(`not a timestamp: ${String(value)}`);
}

export function toIso(value: unknown): string {
  return toDate(value).toISOString();
}

export function toIsoOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : toIso(value);
}
