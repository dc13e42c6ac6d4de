/**
 * The baselines of the server benchmark, answering the same JSON with no key and no database: a bare
 * Express app; with BARE_SERVER=node a bare node:http server; with BARE_SERVER=express-prototypes the
 * bare Express app on the server's own HTTP server (requests made with Express's prototypes).
 * POST /api/v1/list_capabilities gets the answer of the real list_capabilities (made once at start);
 * every other POST path the answer of a charged search_papers call.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import express from 'express';
import { listenOnConfiguredServer } from '../src/server/http-server.ts';
import { listCapabilities } from '../src/tools/list-capabilities.ts';
import { stubSearchAnswer } from '../test/support/stub-handlers.ts';

const capabilities = await listCapabilities({});

function answer(path: string, query: unknown): unknown {
  if (path === '/api/v1/list_capabilities') return { ...capabilities, credits_used: 0, call_id: `call_${randomUUID().replace(/-/g, '')}` };
  return {
    ...stubSearchAnswer(query),
    credits_used: 1,
    call_id: `call_${randomUUID().replace(/-/g, '')}`,
  };
}

function announce(address: ReturnType<ReturnType<typeof createServer>['address']>): void {
  console.log(JSON.stringify({ msg: 'listening', port: typeof address === 'object' && address ? address.port : 0 }));
}

let close: (done: () => void) => void;
if (process.env.BARE_SERVER === 'node') {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += String(chunk)));
    request.on('end', () => {
      const text = JSON.stringify(answer(request.url ?? '', (JSON.parse(body || '{}') as { query?: unknown }).query));
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    });
  });
  server.listen(0, '127.0.0.1', () => announce(server.address()));
  close = (done) => server.close(done);
} else {
  const app = express();
  if (process.env.BARE_SERVER === 'express-prototypes') listenOnConfiguredServer(app);
  app.use(express.json());
  app.post('/api/v1/:tool', (request, response) => {
    response.json(answer(request.path, request.body?.query));
  });
  const server = app.listen(0, '127.0.0.1', () => announce(server.address()));
  close = (done) => server.close(done);
}
process.on('SIGTERM', () => close(() => process.exit(0)));
