import { randomInt } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from base62 (randomInt rejects biased draws). */
export function randomBase62(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += BASE62[randomInt(BASE62.length)];
  return text;
}

export function newAccountId(): string {
  return `acc_${randomBase62(16)}`;
}

export function newKeyId(): string {
  return `key_${randomBase62(16)}`;
}

/**
 * `call_` and 32 hex digits: a UUIDv7, whose leading milliseconds make ids of later calls sort
 * later, so the ledger's and call log's indexes grow at their end instead of at random pages
 * (on SQLite that is several times fewer pages written per commit).
 */
export function newCallId(): string {
  return `call_${uuidv7().replace(/-/g, '')}`;
}
