import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { tools } from '../../generated/tools.ts';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../src/server/docs.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { describeInBrowser, launchChromium, openRendered } from '../support/browser.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { pngSize } from '../figures/helpers.ts';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import type { AddressInfo } from 'node:net';

/** The security headers `middleware` puts on an answer of a bare Express app (lower-case names). */
async function headersOfBareApp(middleware: RequestHandler): Promise<Record<string, string>> {
  const app = express()
    .use(middleware)
    .get('/', (_request, response) => void response.end());
  const listener = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => listener.once('listening', resolve));
  try {
    const answer = await fetch(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/`);
    const general = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-powered-by']);
    return Object.fromEntries([...answer.headers].filter(([name]) => !general.has(name)));
  } finally {
    listener.close();
  }
}

describeOnEachEngine('the API reference page and security headers', (engine) => {
  let server: TestServer;
  before(async function () {
    server = await startServer(engine.db, { env: { CORS_ORIGINS: 'https://notebook.example.org' } });
  });
  after(async function () {
    await server.close();
  });

  it('GET /docs is an HTML page whose scripts and styles all come from this server, under a strict policy', async function () {
    const page = await fetch(`${server.baseUrl}/docs`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).to.equal(DOCS_CONTENT_SECURITY_POLICY);
    const html = await page.text();
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(references).to.deep.equal(['/docs/assets/swagger-ui.css', '/docs/page.css', '/docs/assets/swagger-ui-bundle.js', '/docs/page.js']);
    expect(html).to.not.match(/<script>/);
    for (const asset of references) {
      const answer = await fetch(`${server.baseUrl}${asset!}`);
      expect(answer.status, asset).to.equal(200);
    }
    const unknownAsset = await call(server.baseUrl, '/docs/assets/index.html');
    expect(unknownAsset.status).to.equal(404);
    expect(unknownAsset.body.error.code).to.equal('not_found');
  });

  it('every answer carries the security headers, JSON errors included', async function () {
    for (const path of ['/healthz', '/api/v1', '/nowhere']) {
      const answer = await fetch(`${server.baseUrl}${path}`);
      expect(answer.headers.get('x-content-type-options'), path).to.equal('nosniff');
      expect(answer.headers.get('x-frame-options'), path).to.equal('SAMEORIGIN');
      expect(answer.headers.get('referrer-policy'), path).to.equal('no-referrer');
      expect(answer.headers.get('content-security-policy'), path).to.match(/^default-src 'self'/);
      expect(answer.headers.get('strict-transport-security'), path).to.equal('max-age=31536000; includeSubDomains');
    }
  });

  it("sets exactly the headers helmet's defaults set, worked out once at start, on tool calls and errors alike", async function () {
    const helmetHeaders = await headersOfBareApp(helmet());
    expect(Object.keys(helmetHeaders)).to.have.length(12);
    const answers = [
      await fetch(`${server.baseUrl}/healthz`),
      await call(server.baseUrl, '/api/v1/list_capabilities', { key: (await newCaller(engine.db, 0)).key, body: {} }),
      await call(server.baseUrl, '/api/v1/list_capabilities', { body: {} }),
    ];
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200, 401]);
    for (const answer of answers) {
      for (const [name, value] of Object.entries(helmetHeaders)) expect(answer.headers.get(name), name).to.equal(value);
      expect(answer.headers.get('x-powered-by')).to.equal(null);
    }
  });

  it('allows browser calls only from the origins in CORS_ORIGINS, exposing the rate-limit and credit headers', async function () {
    const preflight = await fetch(`${server.baseUrl}/api/v1/list_capabilities`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://notebook.example.org',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal('https://notebook.example.org');
    expect(preflight.headers.get('access-control-allow-headers')).to.equal('Authorization,X-API-Key,Content-Type,Idempotency-Key');
    const listed = await fetch(`${server.baseUrl}/api/v1`, { headers: { origin: 'https://notebook.example.org' } });
    expect(listed.headers.get('access-control-expose-headers')).to.equal('Retry-After,RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,X-Credits-Remaining');
    const stranger = await fetch(`${server.baseUrl}/api/v1`, { headers: { origin: 'https://elsewhere.example.com' } });
    expect(stranger.headers.get('access-control-allow-origin')).to.equal(null);
  });
});

describeOnEachEngine('CORS left unset', (engine) => {
  it('sends no CORS headers to any origin', async function () {
    const server = await startServer(engine.db);
    try {
      const answer = await fetch(`${server.baseUrl}/api/v1`, { headers: { origin: 'https://notebook.example.org' } });
      expect(answer.headers.get('access-control-allow-origin')).to.equal(null);
    } finally {
      await server.close();
    }
  });
});

describeInBrowser('the API reference page in headless Chromium (loopback only)', () => {
  describeOnEachEngine('rendered', (engine) => {
    let server: TestServer;
    let browser: Browser;
    before(async function () {
      this.timeout(60_000);
      server = await startServer(engine.db);
      browser = await launchChromium();
    });
    after(async function () {
      await browser?.close();
      await server?.close();
    });

    it('shows every tool of the API, loaded with the network limited to this server', async function () {
      this.timeout(90_000);
      const paths = Object.values(tools).map((tool) => `/api/v1/${tool.name}`);
      const page = await openRendered(browser, `${server.baseUrl}/docs`, ['Research Tools API', ...paths], { width: 1280, height: 900 });
      const dom = await page.content();
      expect(dom).to.contain('Research Tools API');
      for (const path of paths) expect(dom, path).to.contain(path);
      expect(pngSize(await page.screenshot())).to.deep.equal({ width: 1280, height: 900 });
      await page.close();
    });
  });
});
