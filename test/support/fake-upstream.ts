/**
 * A fake upstream for tests: a real HTTP server on a loopback address that serves recorded bodies and can
 * inject the faults real APIs show — no answer at all, a body that stalls half-way, 429 with
 * Retry-After, 500, a reset connection, garbage, HTML pages — and counts every request it gets.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';

export type Reply =
  | { status?: number; body: string; contentType?: string; headers?: Record<string, string>; delayMs?: number; gzip?: boolean }
  | { fault: 'no_answer' }
  | { fault: 'reset' }
  | { fault: 'slow_body'; body: string; firstBytes: number; contentType?: string }
  | { fault: 'truncated'; body: string; contentType?: string }
  /** A gzip body that expands to `expandsTo` bytes of zeros, compressed while it is sent (never held whole). */
  | { fault: 'gzip_bomb'; expandsTo: number }
  /** A 200 body that never ends: chunks of spaces until the client hangs up. */
  | { fault: 'endless' }
  /** A valid JSON array of `bytes` bytes, written chunk by chunk without a Content-Length. */
  | { fault: 'huge_json'; bytes: number };

export interface Hit {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The query as it came, undecoded (`?a=b%5B…`). */
  search: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
  /** The answer was sent in full. */
  answered: boolean;
  /** The client closed the request before its answer was sent (it cut the request off). */
  abandoned: boolean;
}

/** A reply worked out from the request: a fake that keeps state (counts a quota, for example). */
export type Responder = (hit: Hit) => Reply;

interface Route {
  path: string;
  replies: Array<Reply | Responder>;
  served: number;
}

export interface FakeUpstream {
  url: string;
  hits: Hit[];
  /** Requests to `path` get `replies` in turn; the last one repeats. A later route for the same path replaces it. A function is asked for each reply. */
  on(path: string, ...replies: Array<Reply | Responder>): void;
  /** Requests to any path under `prefix` (and not routed exactly) get `respond`'s reply. */
  under(prefix: string, respond: Responder): void;
  /** Requests to a path with no route and under no prefix get `replies` in turn, over and over (instead of a 404 naming the path). */
  otherwise(...replies: Reply[]): void;
  hitsOn(path: string): Hit[];
  /** From now on no answer is sent (a request waits, after its reply's delay) until `release`. */
  hold(): void;
  release(): void;
  reset(): void;
  close(): Promise<void>;
}

export const json = (body: unknown, extra: Partial<{ status: number; headers: Record<string, string>; delayMs: number }> = {}): Reply => ({
  body: typeof body === 'string' ? body : JSON.stringify(body),
  contentType: 'application/json; charset=utf-8',
  ...extra,
});

/** `now` stamps each hit (`Hit.at`); a test with a fake clock passes its own. */
export async function startFakeUpstream(now: () => number = Date.now): Promise<FakeUpstream> {
  const routes = new Map<string, Route>();
  const prefixes = new Map<string, Responder>();
  const hits: Hit[] = [];
  const sockets = new Set<Socket>();
  let held: { until: Promise<void>; release(): void } | undefined;
  const answerable = async (): Promise<void> => {
    while (held) await held.until;
  };
  const fallback: { replies: Reply[]; served: number } = { replies: [], served: 0 };

  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const hit: Hit = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        search: url.search,
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
        at: now(),
        answered: false,
        abandoned: false,
      };
      hits.push(hit);
      response.once('finish', () => (hit.answered = true));
      response.once('close', () => (hit.abandoned = !hit.answered));
      const route = routes.get(url.pathname);
      const prefix = [...prefixes.keys()].find((candidate) => url.pathname.startsWith(candidate));
      if (!route && prefix === undefined && fallback.replies.length > 0) {
        void serve(fallback.replies[fallback.served++ % fallback.replies.length]!, request, response, answerable);
        return;
      }
      if (!route && prefix === undefined) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end(`fake upstream: nothing at ${url.pathname}`);
        return;
      }
      let reply: Reply | Responder;
      if (route) {
        reply = route.replies[Math.min(route.served, route.replies.length - 1)]!;
        route.served += 1;
      } else reply = prefixes.get(prefix!)!;
      void serve(typeof reply === 'function' ? reply(hit) : reply, request, response, answerable);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // An address of its own in 127.0.0.0/8: what the service keeps per upstream address across
  // processes (budget counts in a shared database or Redis) never carries over from another run.
  const host = `127.${[0, 0, 0].map(() => 1 + Math.floor(Math.random() * 254)).join('.')}`;
  server.listen(0, host);
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host}:${port}`,
    hits,
    on(path, ...replies) {
      routes.set(path, { path, replies, served: 0 });
    },
    under(prefix, respond) {
      prefixes.set(prefix, respond);
    },
    otherwise(...replies) {
      fallback.replies = replies;
      fallback.served = 0;
    },
    hitsOn: (path) => hits.filter((hit) => hit.path === path),
    hold() {
      if (held) return;
      let release!: () => void;
      const until = new Promise<void>((resolve) => (release = resolve));
      held = { until, release };
    },
    release() {
      const was = held;
      held = undefined;
      was?.release();
    },
    reset() {
      routes.clear();
      prefixes.clear();
      fallback.replies = [];
      hits.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const CHUNK_BYTES = 64 * 1024;

/** Writes `chunk` again and again into `sink` until about `total` bytes are written or `response` closes, waiting whenever the sink is full. */
async function pump(sink: Writable, response: ServerResponse, chunk: Buffer, total: number): Promise<void> {
  let written = 0;
  let closed = false;
  response.once('close', () => (closed = true));
  while (!closed && written + chunk.length <= total) {
    written += chunk.length;
    if (!sink.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          sink.off('drain', done);
          response.off('close', done);
          resolve();
        };
        sink.once('drain', done);
        response.once('close', done);
      });
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function serve(reply: Reply, request: IncomingMessage, response: ServerResponse, answerable: () => Promise<void>): Promise<void> {
  if ('fault' in reply) {
    switch (reply.fault) {
      case 'no_answer':
        return; // the socket stays open without a byte until the client gives up
      case 'reset':
        request.socket.destroy();
        return;
      case 'slow_body':
        response.writeHead(200, { 'content-type': reply.contentType ?? 'application/json', 'content-length': Buffer.byteLength(reply.body) });
        response.write(reply.body.slice(0, reply.firstBytes));
        return; // the rest never comes
      case 'truncated':
        // Promises the whole length, sends half, then closes: the client sees a broken-off body.
        response.writeHead(200, { 'content-type': reply.contentType ?? 'application/json', 'content-length': Buffer.byteLength(reply.body) });
        response.write(reply.body.slice(0, Math.floor(reply.body.length / 2)));
        setTimeout(() => request.socket.destroy(), 10);
        return;
      case 'gzip_bomb': {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        const gzip = createGzip();
        gzip.pipe(response);
        await pump(gzip, response, Buffer.alloc(CHUNK_BYTES), reply.expandsTo);
        gzip.end();
        return;
      }
      case 'endless':
        response.writeHead(200, { 'content-type': 'application/json' });
        await pump(response, response, Buffer.alloc(CHUNK_BYTES, ' '), Infinity);
        return;
      case 'huge_json': {
        response.writeHead(200, { 'content-type': 'application/json' });
        const element = Buffer.from(`"${'x'.repeat(CHUNK_BYTES - 4)}",`);
        response.write('[');
        await pump(response, response, element, reply.bytes - 8);
        response.end('"end"]');
        return;
      }
    }
  }
  if (reply.delayMs) await sleep(reply.delayMs);
  await answerable();
  if (response.destroyed) return;
  const headers: Record<string, string> = { 'content-type': reply.contentType ?? 'application/json', ...reply.headers };
  let body: Buffer = Buffer.from(reply.body);
  if (reply.gzip) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
  }
  response.writeHead(reply.status ?? 200, headers).end(body);
}
