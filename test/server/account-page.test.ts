/**
 * The account settings page at /account: sign-in with an API key for a short session cookie, the
 * CSRF token on every change, the failed-key limit on sign-in, expiry, and the page's strict
 * policy. On both engines, over real HTTP.
 */
import { expect } from 'chai';
import { FAILED_KEY_ATTEMPTS } from '../../src/server/rate-limits.ts';
import { ACCOUNT_CONTENT_SECURITY_POLICY, CSRF_HEADER, SESSION_COOKIE } from '../../src/server/account/page.ts';
import { getBalance, listKeys, packSettings } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { documentationAddress, newCaller, startServer, type TestServer } from '../support/server.ts';

interface PageAnswer {
  status: number;
  headers: Headers;
  body: any;
}

describeOnEachEngine('the account settings page: sessions and CSRF', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(engine.db, { env: { ACCOUNT_SESSION_MINUTES: '15' } });
  });
  after(async () => server.close());

  async function page(method: string, path: string, options: { cookie?: string; csrf?: string; body?: unknown; address?: string } = {}): Promise<PageAnswer> {
    const headers: Record<string, string> = { 'x-forwarded-for': options.address ?? documentationAddress() };
    if (options.cookie) headers.cookie = `${SESSION_COOKIE}=${options.cookie}`;
    if (options.csrf) headers[CSRF_HEADER] = options.csrf;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${server.baseUrl}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text.startsWith('{') ? JSON.parse(text) : text };
  }

  async function signIn(key: string): Promise<{ cookie: string; csrf: string; setCookie: string }> {
    const answer = await page('POST', '/account/api/session', { body: { key } });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    const setCookie = answer.headers.get('set-cookie')!;
    return { cookie: /^rt_account_session=([^;]+)/.exec(setCookie)![1]!, csrf: answer.body.csrf_token, setCookie };
  }

  it('serves the page with its own script and style only, under a strict policy', async () => {
    const answer = await page('GET', '/account');
    expect([answer.status, answer.headers.get('content-type'), answer.headers.get('content-security-policy')]).to.deep.equal([
      200,
      'text/html; charset=utf-8',
      ACCOUNT_CONTENT_SECURITY_POLICY,
    ]);
    const references = [...String(answer.body).matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]).filter((reference) => reference !== 'data:,');
    expect(references).to.deep.equal(['/account/account.css', '/account/account.js']);
    expect(answer.body).to.not.match(/<script>|style="/);
    for (const asset of references) expect((await page('GET', asset!)).status, asset).to.equal(200);
    expect((await page('GET', '/account/index.html')).status).to.equal(404);
  });

  it('exchanges a key for an HttpOnly, SameSite=Strict, Secure session cookie of the configured lifetime; the key is not in the cookie', async () => {
    const caller = await newCaller(engine.db, 7);
    const session = await signIn(caller.key);
    expect(session.setCookie).to.equal(`${SESSION_COOKIE}=${session.cookie}; Max-Age=900; Path=/account; HttpOnly; Secure; SameSite=Strict`);
    expect(session.setCookie).to.not.include(caller.key);
    const overview = await page('GET', '/account/api/overview', { cookie: session.cookie });
    expect(overview.status).to.equal(200);
    expect(overview.body.account).to.deep.include({ id: caller.accountId, balance: 7 });
    expect(overview.body.keys.map((key: { id: string; in_use: boolean }) => [key.id, key.in_use])).to.deep.equal([[caller.keyId, true]]);
    expect(overview.body.pack_titles.astro).to.equal('Astronomy');
    expect(overview.body.usage.by_day).to.have.length(30);
    expect(overview.headers.get('cache-control')).to.equal('no-store');
  });

  it("refuses a change without the session's CSRF token (403), and makes it with the token", async () => {
    const caller = await newCaller(engine.db, 7);
    const session = await signIn(caller.key);
    const without = await page('POST', '/account/api/keys', { cookie: session.cookie, body: { name: 'x' } });
    const wrong = await page('PUT', '/account/api/packs/astro', { cookie: session.cookie, csrf: 'A'.repeat(43), body: { enabled: false } });
    const deleteWithout = await page('DELETE', `/account/api/keys/${caller.keyId}`, { cookie: session.cookie });
    expect([without, wrong, deleteWithout].map((answer) => [answer.status, answer.body.error.code])).to.deep.equal([
      [403, 'forbidden'],
      [403, 'forbidden'],
      [403, 'forbidden'],
    ]);
    expect(without.body.error.message).to.equal("X-CSRF-Token: missing or not this session's token; reload the page");
    expect((await listKeys(engine.db, caller.accountId)).length).to.equal(1);
    expect((await packSettings(engine.db, caller.accountId)).astro).to.equal(true);

    const created = await page('POST', '/account/api/keys', { cookie: session.cookie, csrf: session.csrf, body: { name: 'from the page' } });
    const switched = await page('PUT', '/account/api/packs/astro', { cookie: session.cookie, csrf: session.csrf, body: { enabled: false } });
    expect([created.status, created.body.name, switched.status, switched.body.packs.astro]).to.deep.equal([200, 'from the page', 200, false]);
    expect(await getBalance(engine.db, caller.accountId)).to.equal(7);
  });

  it('refuses changes sent by another site: a foreign Origin (403) or a body that is not JSON (400), sign-in included', async () => {
    const caller = await newCaller(engine.db, 7);
    const session = await signIn(caller.key);
    const foreign = await fetch(`${server.baseUrl}/account/api/session`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json', 'x-forwarded-for': documentationAddress() },
      body: JSON.stringify({ key: caller.key }),
    });
    const formPost = await fetch(`${server.baseUrl}/account/api/keys`, {
      method: 'POST',
      headers: {
        cookie: `${SESSION_COOKIE}=${session.cookie}`,
        [CSRF_HEADER]: session.csrf,
        'content-type': 'text/plain',
        'x-forwarded-for': documentationAddress(),
      },
      body: '{"name":"x"}',
    });
    expect([foreign.status, (await foreign.json()).error.message, formPost.status, (await formPost.json()).error.message]).to.deep.equal([
      403,
      "Origin: https://evil.example may not change this account's settings",
      400,
      'Content-Type: must be application/json',
    ]);
    const ownOrigin = await fetch(`${server.baseUrl}/account/api/keys`, {
      method: 'POST',
      headers: {
        origin: server.baseUrl,
        cookie: `${SESSION_COOKIE}=${session.cookie}`,
        [CSRF_HEADER]: session.csrf,
        'content-type': 'application/json',
        'x-forwarded-for': documentationAddress(),
      },
      body: '{"name":"x"}',
    });
    expect(ownOrigin.status).to.equal(200);
    expect((await listKeys(engine.db, caller.accountId)).map((key) => key.name)).to.deep.equal(['test', 'x']);
  });

  it('a bad key is refused with the same failed-key limit as the API: 401, then 429 for the address', async function () {
    this.timeout(30_000);
    const address = documentationAddress();
    const answers: number[] = [];
    for (let attempt = 0; attempt <= FAILED_KEY_ATTEMPTS; attempt += 1) {
      answers.push((await page('POST', '/account/api/session', { body: { key: `sm_${'x'.repeat(40)}` }, address })).status);
    }
    expect(answers).to.deep.equal([...Array(FAILED_KEY_ATTEMPTS).fill(401), 429]);
    const empty = await page('POST', '/account/api/session', { body: {} });
    expect([empty.status, empty.body.error.message]).to.deep.equal([400, 'key: paste an API key (sm_…)']);
  });

  it('a session expires: past its end it is refused, and a request without a cookie is 401', async () => {
    const caller = await newCaller(engine.db, 7);
    const session = await signIn(caller.key);
    expect((await page('GET', '/account/api/session', { cookie: session.cookie })).body).to.deep.include({ signed_in: true, csrf_token: session.csrf });
    // Time passes: the session's end is now behind us.
    await engine
      .db('account_sessions')
      .where({ account_id: caller.accountId })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await page('GET', '/account/api/overview', { cookie: session.cookie });
    expect([expired.status, expired.body.error.message]).to.deep.equal([401, 'not signed in, or the session ended: sign in with an API key']);
    expect((await page('GET', '/account/api/overview')).status).to.equal(401);
    expect((await page('GET', '/account/api/session', { cookie: session.cookie })).body).to.deep.equal({ signed_in: false });
  });

  it('deleting the key a session was opened with ends that session; signing out ends it too', async () => {
    const caller = await newCaller(engine.db, 7);
    const first = await signIn(caller.key);
    const deleted = await page('DELETE', `/account/api/keys/${caller.keyId}`, { cookie: first.cookie, csrf: first.csrf });
    expect([deleted.status, deleted.body.was_in_use]).to.deep.equal([200, true]);
    expect((await page('GET', '/account/api/overview', { cookie: first.cookie })).status).to.equal(401);

    const other = await newCaller(engine.db, 7);
    const second = await signIn(other.key);
    const signedOut = await page('DELETE', '/account/api/session', { cookie: second.cookie, csrf: second.csrf });
    expect([signedOut.status, signedOut.headers.get('set-cookie')]).to.deep.equal([
      200,
      `${SESSION_COOKIE}=; Max-Age=0; Path=/account; HttpOnly; Secure; SameSite=Strict`,
    ]);
    expect((await page('GET', '/account/api/overview', { cookie: second.cookie })).status).to.equal(401);
  });
});
