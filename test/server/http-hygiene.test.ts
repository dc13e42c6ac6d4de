/** What the HTTP server answers before the app's routes can: bad paths, bad HTTP, connection timeouts. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { eventually } from '../support/eventually.ts';
import { startServerProcess } from '../support/processes.ts';
import { temporaryFolder } from '../figures/helpers.ts';
import { call, startServer, type TestServer } from '../support/server.ts';

/** Sends raw bytes and returns the whole answer. */
async function raw(baseUrl: string, request: string): Promise<{ status: number; contentType: string | undefined; body: unknown }> {
  const { hostname, port } = new URL(baseUrl);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let received = '';
    socket.on('data', (chunk) => (received += String(chunk)));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  const contentType = /\r\ncontent-type: ([^\r]*)/i.exec(head)?.[1];
  return { status, contentType, body: JSON.parse(body) };
}

describeOnEachEngine('HTTP hygiene', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(engine.db);
  });
  after(async () => {
    await server.close();
  });

  it('answers 400 invalid_input JSON for malformed percent-encoding in a path', async () => {
    for (const path of ['/api/v1/%zz', '/files/%']) {
      const answer = await call(server.baseUrl, path);
      expect([path, answer.status, answer.body?.error?.code]).to.deep.equal([path, 400, 'invalid_input']);
    }
    const posted = await call(server.baseUrl, '/api/v1/%zz', { body: {} });
    expect([posted.status, posted.body?.error?.code]).to.deep.equal([400, 'invalid_input']);
  });

  it("answers the HTTP parser's own rejections with the JSON error object", async () => {
    const malformed = await raw(server.baseUrl, 'GET /healthz HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n');
    expect([malformed.status, malformed.contentType, malformed.body]).to.deep.equal([
      400,
      'application/json; charset=utf-8',
      { error: { code: 'invalid_input', message: 'the request is not valid HTTP' } },
    ]);
    const oversized = await raw(server.baseUrl, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect([oversized.status, oversized.body]).to.deep.equal([431, { error: { code: 'invalid_input', message: 'the request headers are too large' } }]);
  });

  it("makes each request and response with the app's own prototypes, so that Express changes neither", async () => {
    const prototypes: Array<{ request: boolean; response: boolean }> = [];
    const record = (request: IncomingMessage, response: ServerResponse): void => {
      const made = { request: Object.getPrototypeOf(request) as unknown, response: Object.getPrototypeOf(response) as unknown };
      response.once('finish', () =>
        prototypes.push({ request: Object.getPrototypeOf(request) === made.request, response: Object.getPrototypeOf(response) === made.response }),
      );
    };
    server.httpServer.prependListener('request', record);
    try {
      const answer = await call(server.baseUrl, '/healthz');
      expect(answer.body).to.deep.equal({ status: 'ok' });
      await eventually(
        async () => prototypes.length,
        (count) => count > 0,
      );
      expect(prototypes).to.deep.equal([{ request: true, response: true }]);
    } finally {
      server.httpServer.off('request', record);
    }
  });

  it('keeps idle connections longer than a 60 s load balancer does', async () => {
    const answer = await fetch(`${server.baseUrl}/healthz`);
    expect(answer.headers.get('keep-alive')).to.equal('timeout=65');
    await answer.text();
  });
});

describe('a server process whose port is taken', () => {
  it('exits at once with a startup_failed error naming the port', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    const { address, port } = taken.address() as AddressInfo;
    try {
      const started = startServerProcess('test/support/serve.ts', { DATABASE_URL: `sqlite:${join(temporaryFolder(), 'ledger.sqlite')}`, PORT: String(port) });
      const failure = await started.then(
        async (server) => {
          await server.kill();
          return 'it started';
        },
        (error: Error) => error.message,
      );
      const exited = /^server process exited with (\d+): (.*)$/s.exec(failure);
      expect(exited, failure).to.not.equal(null);
      const [, code, stderr] = exited!;
      expect([code, JSON.parse(stderr!)]).to.deep.equal([
        '1',
        { error: { code: 'startup_failed', message: `PORT ${port} cannot be listened on: listen EADDRINUSE: address already in use ${address}:${port}` } },
      ]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
