import { randomInt } from 'node:crypto';

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
