/**
 * GET /api/v1/account: the caller's own account, as the admin CLI shows it (`accounts show` and
 * `usage`, the same ledger functions): balance, packs and the last 20 calls. Free, and not counted
 * by the key's tool-call rate limit; a missing or bad key meets the failed-key limit like any other.
 */
import type { RequestHandler } from 'express';
import type { Knex } from 'knex';
import { ApiError } from '../../errors.ts';
import { getAccount, usage } from '../../ledger/index.ts';
import { authenticate } from '../auth.ts';
import type { KeyVerifier } from '../key-cache.ts';
import type { RateLimits } from '../rate-limits.ts';
import { setCreditsRemaining } from '../tool-call.ts';

export const RECENT_CALLS = 20;

export function accountHandler(db: Knex, keys: KeyVerifier, limits: RateLimits): RequestHandler {
  return async (request, response) => {
    const caller = await authenticate(request, keys, limits);
    const [account, recentCalls] = await Promise.all([getAccount(db, caller.accountId), usage(db, caller.accountId, { limit: RECENT_CALLS })]);
    // The account was deleted between the key check and now.
    if (!account) throw new ApiError('unauthorized', 'API key not valid');
    await setCreditsRemaining(response, db, account.id, account.credits);
    response.json({ account: { id: account.id, name: account.name, balance: account.credits, packs: account.packs }, recent_calls: recentCalls });
  };
}
