/** Finds the API key of a request (spec part 5) and the account it belongs to. */
import type { Request } from 'express';
import { ApiError } from '../errors.ts';
import type { AuthenticatedKey } from '../ledger/index.ts';
import type { KeyVerifier } from './key-cache.ts';
import type { RateLimits } from './rate-limits.ts';

/** The key from `Authorization: Bearer <key>` or `x-api-key: <key>`; undefined when neither is sent. */
export function presentedKey(request: Request): string | undefined {
  const authorization = request.get('authorization');
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1] ?? '';
  }
  return request.get('x-api-key')?.trim();
}

/**
 * The key is checked first: a key that verifies is never refused because of failures from its
 * address (other people may share it). Only a missing or bad key meets the address's failure limit.
 */
export async function authenticate(request: Request, keys: KeyVerifier, limits: RateLimits): Promise<AuthenticatedKey> {
  return verifyKey(presentedKey(request), request.ip ?? 'unknown', keys, limits);
}

/** A key as presented (undefined: none was sent) checked for a client address, under the same failed-key limit everywhere. */
export async function verifyKey(key: string | undefined, address: string, keys: KeyVerifier, limits: RateLimits): Promise<AuthenticatedKey> {
  const found = key ? await keys.verify(key) : null;
  if (found) return found;
  limits.checkAddress(address);
  if (key === undefined) {
    throw new ApiError('unauthorized', 'API key missing: send `Authorization: Bearer <key>` or `x-api-key: <key>`');
  }
  await limits.recordFailedKey(address);
  throw new ApiError('unauthorized', 'API key not valid');
}
