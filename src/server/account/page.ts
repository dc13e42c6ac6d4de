/**
 * GET /account: the account owner's settings page, and the small JSON interface under
 * /account/api that its script calls. The owner signs in by pasting an API key, which is exchanged
 * for a session cookie (HttpOnly, SameSite=Strict, Secure over HTTPS, path /account); the key is
 * never kept by the browser. Every change needs the session's CSRF token in `X-CSRF-Token`. The
 * page's script and style come from this server only, under a strict Content Security Policy.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCookie, stringifySetCookie } from 'cookie';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Knex } from 'knex';
import { packs } from '../../../generated/tools.ts';
import { ApiError } from '../../errors.ts';
import { verifyKey } from '../auth.ts';
import type { KeyVerifier } from '../key-cache.ts';
import { refuseOtherMethods } from '../methods.ts';
import type { RateLimits } from '../rate-limits.ts';
import { ACCOUNT_BODY_LIMIT_BYTES } from './api.ts';
import { createOwnerKey, deleteOwnerKey, ownerAccount, ownerChanges, ownerKeys, ownerUsage, setOwnerPack } from './owner.ts';
import { closeSession, csrfMatches, findSession, openSession, type Session } from './sessions.ts';

const pageDir = fileURLToPath(new URL('./page/', import.meta.url));
const PAGE_ASSETS = new Set(['account.js', 'account.css']);

export const SESSION_COOKIE = 'rt_account_session';
export const CSRF_HEADER = 'X-CSRF-Token';

/** No inline script or style, nothing from elsewhere; the chart is drawn as SVG elements by the page's own script. */
export const ACCOUNT_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

const parseJson = express.json({ limit: ACCOUNT_BODY_LIMIT_BYTES, type: () => true, strict: true });

export interface AccountPageOptions {
  db: Knex;
  keys: KeyVerifier;
  limits: RateLimits;
  sessionMinutes: number;
  /** PUBLIC_BASE_URL: when https, the cookie is Secure even behind a TLS-terminating proxy; its origin may send changes. */
  publicBaseUrl: string;
}

export function accountPageRouter({ db, keys, limits, sessionMinutes, publicBaseUrl }: AccountPageOptions): Router {
  const router = express.Router({ caseSensitive: true });
  const publicHttps = publicBaseUrl.startsWith('https:');
  const publicOrigin = [new URL(publicBaseUrl).origin];
  const lifetimeMs = sessionMinutes * 60_000;
  const cookieToken = (request: Request): string | undefined => parseCookie(request.get('cookie') ?? '')[SESSION_COOKIE];
  const setCookie = (request: Request, response: Response, token: string, maxAgeSeconds: number): void => {
    response.append(
      'Set-Cookie',
      stringifySetCookie({
        name: SESSION_COOKIE,
        value: token,
        path: '/account',
        httpOnly: true,
        sameSite: 'strict',
        secure: publicHttps || request.secure,
        maxAge: maxAgeSeconds,
      }),
    );
  };

  /** The request's live session, or 401; for changes, also the CSRF token or 403. */
  const sessionOf = async (request: Request, forChange: boolean): Promise<Session> => {
    const session = await findSession(db, cookieToken(request));
    if (!session) throw new ApiError('unauthorized', 'not signed in, or the session ended: sign in with an API key');
    if (forChange && !csrfMatches(session, request.get(CSRF_HEADER))) {
      throw new ApiError('forbidden', `${CSRF_HEADER}: missing or not this session's token; reload the page`);
    }
    return session;
  };
  const signedIn =
    (work: (session: Session, request: Request) => Promise<unknown>, forChange = true): RequestHandler =>
    async (request, response) => {
      response.set('Cache-Control', 'no-store');
      const session = await sessionOf(request, forChange);
      const answer = await work(session, request);
      // A key deleted or a pack switched here counts on this process at once (others within KEY_CACHE_MS).
      if (forChange) keys.forgetAccount(session.accountId);
      response.json(answer);
    };
  const field = (request: Request, name: string): unknown => {
    const body: unknown = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError('invalid_input', 'body: must be a JSON object');
    return (body as Record<string, unknown>)[name];
  };

  router.use('/account', (_request, response, next) => {
    response.set('Content-Security-Policy', ACCOUNT_CONTENT_SECURITY_POLICY);
    next();
  });
  // Writes come from this page's own script only: a page elsewhere can send neither JSON (without a
  // CORS preflight this server never grants) nor its own origin as ours. Sign-in included, so no
  // other site can sign a browser in to an account of its choosing.
  router.use('/account/api', (request, _response, next) => {
    if (request.method === 'GET' || request.method === 'HEAD') return next();
    const origin = request.get('origin');
    if (origin !== undefined && origin !== `${request.protocol}://${request.get('host')}` && !publicOrigin.includes(origin)) {
      throw new ApiError('forbidden', `Origin: ${origin} may not change this account's settings`);
    }
    if (request.get('content-length') !== undefined && request.get('content-length') !== '0' && !request.is('application/json')) {
      throw new ApiError('invalid_input', 'Content-Type: must be application/json');
    }
    next();
  });
  router.get(['/account', '/account/'], (_request, response) => {
    response.set('Cache-Control', 'no-store');
    response.sendFile(path.join(pageDir, 'index.html'));
  });
  router.get('/account/:asset', (request, response, next) => {
    if (!PAGE_ASSETS.has(String(request.params.asset))) return next();
    response.sendFile(path.join(pageDir, String(request.params.asset)));
  });

  // Sign in: the same failed-key limit per address as the API.
  router.post('/account/api/session', parseJson, async (request, response) => {
    const key = field(request, 'key');
    if (typeof key !== 'string' || key.trim() === '') throw new ApiError('invalid_input', 'key: paste an API key (sm_…)');
    const caller = await verifyKey(key.trim(), request.ip ?? 'unknown', keys, limits);
    const { token, session } = await openSession(db, { accountId: caller.accountId, keyId: caller.keyId }, lifetimeMs);
    setCookie(request, response, token, Math.floor(lifetimeMs / 1000));
    response.set('Cache-Control', 'no-store');
    response.json({ csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() });
  });
  // The page asks on load whether its cookie still holds a session (the cookie is HttpOnly), and gets the CSRF token for it.
  router.get('/account/api/session', async (request, response) => {
    const session = await findSession(db, cookieToken(request));
    response.set('Cache-Control', 'no-store');
    response.json(session ? { signed_in: true, csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() } : { signed_in: false });
  });
  router.delete('/account/api/session', async (request, response) => {
    const session = await sessionOf(request, true);
    await closeSession(db, cookieToken(request)!);
    setCookie(request, response, '', 0);
    response.json({ signed_out: true, account_id: session.accountId });
  });

  router.get(
    '/account/api/overview',
    signedIn(async (session) => {
      const [account, keys, usage, changes] = await Promise.all([
        ownerAccount(db, session),
        ownerKeys(db, session),
        ownerUsage(db, session, {}),
        ownerChanges(db, session),
      ]);
      return { account, pack_titles: Object.fromEntries(packs.map((pack) => [pack.id, pack.title])), keys, usage, changes: changes.slice(0, 10) };
    }, false),
  );
  router.post(
    '/account/api/keys',
    parseJson,
    signedIn(async (session, request) => createOwnerKey(db, session, field(request, 'name'), limits)),
  );
  router.delete(
    '/account/api/keys/:key_id',
    signedIn(async (session, request) => deleteOwnerKey(db, session, String(request.params.key_id))),
  );
  router.put(
    '/account/api/packs/:pack',
    parseJson,
    signedIn(async (session, request) => ({
      packs: await setOwnerPack(db, session, String(request.params.pack), field(request, 'enabled')),
    })),
  );
  refuseOtherMethods(router, ['/account', '/account/'], ['GET']);
  refuseOtherMethods(router, '/account/:asset', ['GET'], (request) => PAGE_ASSETS.has(String(request.params.asset)));
  refuseOtherMethods(router, '/account/api/session', ['GET', 'POST', 'DELETE']);
  refuseOtherMethods(router, '/account/api/overview', ['GET']);
  refuseOtherMethods(router, '/account/api/keys', ['POST']);
  refuseOtherMethods(router, '/account/api/keys/:key_id', ['DELETE']);
  refuseOtherMethods(router, '/account/api/packs/:pack', ['PUT']);
  return router;
}
