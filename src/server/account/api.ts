/**
 * The account owner's settings over REST, under /api/v1/account (spec part 5: keys are created and
 * deleted by the owner; part 7: packs are switched in the settings). Every endpoint needs a key of
 * the account, is free, and is not counted by the tool-call rate limit; a missing or bad key meets
 * the failed-key limit like any other. Published in openapi.json by codegen (codegen/emit/openapi.ts).
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Knex } from 'knex';
import { ApiError, clip } from '../../errors.ts';
import { requireJsonAccepted } from '../accept.ts';
import { authenticate } from '../auth.ts';
import type { KeyVerifier } from '../key-cache.ts';
import { refuseOtherMethods } from '../methods.ts';
import type { RateLimits } from '../rate-limits.ts';
import { setCreditsRemaining } from '../tool-call.ts';
import { createOwnerKey, deleteOwnerKey, ownerChanges, ownerKeys, ownerUsage, renameOwnerKey, setOwnerPack, type Owner } from './owner.ts';

/** Bodies here are a name or a switch. */
export const ACCOUNT_BODY_LIMIT_BYTES = 4096;

const parseJson = express.json({ limit: ACCOUNT_BODY_LIMIT_BYTES, type: () => true, strict: true });

/**
 * The JSON object body of a write, read once the caller's key is known (as for tool calls: no body
 * is read for a request without a valid key). JSON only, as the published interface says; no body
 * at all is an empty object.
 */
async function objectBody(request: Request, response: Response): Promise<Record<string, unknown>> {
  const length = request.get('content-length');
  const hasBody = length !== undefined ? Number(length) > 0 : request.get('transfer-encoding') !== undefined;
  if (!hasBody) return {};
  if (!request.is('application/json')) {
    throw new ApiError('invalid_input', `body: Content-Type must be application/json, got "${clip(request.get('content-type') ?? 'none')}"`);
  }
  await new Promise<void>((resolve, reject) => parseJson(request, response, (error?: unknown) => (error ? reject(error) : resolve())));
  const body: unknown = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError('invalid_input', 'body: must be a JSON object');
  return body as Record<string, unknown>;
}

function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  const unknown = Object.keys(body).filter((field) => !allowed.includes(field));
  if (unknown.length > 0) throw new ApiError('invalid_input', `${unknown[0]}: unknown field; this request takes ${allowed.join(', ') || 'no fields'}`);
}

export function accountApiRouter(db: Knex, keys: KeyVerifier, limits: RateLimits): Router {
  const router = express.Router({ caseSensitive: true });
  const keyed =
    (work: (owner: Owner, request: Request, response: Response) => Promise<unknown>, status = 200): RequestHandler =>
    async (request, response) => {
      requireJsonAccepted(request);
      const caller = await authenticate(request, keys, limits);
      const owner = { accountId: caller.accountId, keyId: caller.keyId };
      const answer = await work(owner, request, response);
      // A key deleted or a pack switched here counts on this process at once (others within KEY_CACHE_MS).
      if (request.method !== 'GET') keys.forgetAccount(owner.accountId);
      await setCreditsRemaining(response, db, owner.accountId);
      response.status(status).json(answer);
    };

  router.get(
    '/api/v1/account/keys',
    keyed(async (owner) => ({ keys: await ownerKeys(db, owner) })),
  );
  router.post(
    '/api/v1/account/keys',
    keyed(async (owner, request, response) => {
      const body = await objectBody(request, response);
      onlyFields(body, ['name']);
      return createOwnerKey(db, owner, body.name, limits);
    }, 201),
  );
  router.patch(
    '/api/v1/account/keys/:key_id',
    keyed(async (owner, request, response) => {
      const body = await objectBody(request, response);
      onlyFields(body, ['name']);
      if (!('name' in body)) throw new ApiError('invalid_input', 'name: required (null removes the name)');
      return renameOwnerKey(db, owner, String(request.params.key_id), body.name);
    }),
  );
  router.delete(
    '/api/v1/account/keys/:key_id',
    keyed(async (owner, request) => deleteOwnerKey(db, owner, String(request.params.key_id))),
  );
  router.put(
    '/api/v1/account/packs/:pack',
    keyed(async (owner, request, response) => {
      const body = await objectBody(request, response);
      onlyFields(body, ['enabled']);
      return { packs: await setOwnerPack(db, owner, String(request.params.pack), body.enabled) };
    }),
  );
  router.get(
    '/api/v1/account/usage',
    keyed(async (owner, request) => ownerUsage(db, owner, { from: request.query.from, to: request.query.to })),
  );
  router.get(
    '/api/v1/account/changes',
    keyed(async (owner) => ({ changes: await ownerChanges(db, owner) })),
  );

  const allowed: Record<string, string[]> = {
    '/api/v1/account/keys': ['GET', 'POST'],
    '/api/v1/account/keys/:key_id': ['PATCH', 'DELETE'],
    '/api/v1/account/packs/:pack': ['PUT'],
    '/api/v1/account/usage': ['GET'],
    '/api/v1/account/changes': ['GET'],
  };
  for (const [path, methods] of Object.entries(allowed)) refuseOtherMethods(router, path, methods);
  return router;
}
