import { randomFillSync, randomInt } from 'node:crypto';
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

export function newLeaseId(): string {
  return `lease_${randomBase62(16)}`;
}

export function newKeyId(): string {
  return `key_${randomBase62(16)}`;
}

/**
 * `call_` and 32 hex digits: a UUIDv7, whose leading milliseconds make ids of calls in later
 * milliseconds sort later, so the ledger's and call log's indexes grow at their end instead of at
 * random pages (on SQLite that is several times fewer pages written per commit).
 */
export function newCallId(): string {
  return `call_${uuidv7({ random: randomBytes16() }).replace(/-/g, '')}`;
}

/** Random bytes drawn 4 KB at a time: one call into the system's generator per 256 call ids, not one per id. */
const randomPool = new Uint8Array(4096);
let randomPoolUsed = randomPool.length;

function randomBytes16(): Uint8Array {
  if (randomPoolUsed === randomPool.length) {
    randomFillSync(randomPool);
    randomPoolUsed = 0;
  }
  randomPoolUsed += 16;
  return randomPool.subarray(randomPoolUsed - 16, randomPoolUsed);
}
