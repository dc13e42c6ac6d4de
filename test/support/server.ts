/**
 * Starts the real app on a loopback port for end-to-end tests, against a real database, with its
 * structured log captured so tests can read it.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { Knex } from 'knex';
import type { ToolHandlers } from '../../generated/routes.ts';
import type { FigureJobRunner } from '../../src/figures/runner.ts';
import type { InFlight } from '../../src/server/in-flight.ts';
import { loadConfig } from '../../src/config.ts';
import type { FigureRenderer } from '../../src/figures/renderer.ts';
import { WorkerThreadRenderer } from '../../src/figures/worker-renderer.ts';
import { createAccount, createKey } from '../../src/ledger/index.ts';
import { createLogger } from '../../src/logging.ts';
import { createApp } from '../../src/server/app.ts';
import type { ToolContext } from '../../src/tools/context.ts';
import type { Clock } from '../../src/clock.ts';
import type { UpstreamClient } from '../../src/upstream/client.ts';
import { listenTo, noteAnswer, stopListening } from './answers.ts';
import { FastForwardClock } from './clock.ts';

/** The render threads of this test process, by thread count: kept across servers, since starting a thread costs more CPU than most tests' renders. */
const sharedRenderers = new Map<number, WorkerThreadRenderer>();

/** The process's render threads, lent to one server: closing the server (its figure runner) does not end them; they never keep the process alive. */
function sharedRenderer(threads: number): FigureRenderer {
  let renderer = sharedRenderers.get(threads);
  if (!renderer) sharedRenderers.set(threads, (renderer = new WorkerThreadRenderer({ threads })));
  return { render: (spec) => renderer.render(spec) };
}

export interface TestServer {
  baseUrl: string;
  /** Node's HTTP server, for tests of what happens before the app sees a request. */
  httpServer: Server;
  logLines: string[];
  /** Waits until the ledger writes the server still owes after its answers (call rows, late settlements) are done. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startServer(
  db: Knex,
  options: {
    rateLimitPerMinute?: number;
    handlers?: ToolHandlers<ToolContext>;
    env?: NodeJS.ProcessEnv;
    figureRenderer?: FigureRenderer;
    upstream?: UpstreamClient;
    /** The upstream layer's clock; by default one that skips retry delays and pacing waits instead of sleeping. */
    clock?: Clock;
  } = {},
): Promise<TestServer> {
  // Tests play clients at many addresses through X-Forwarded-For, so the loopback peer is a trusted proxy here unless a test says otherwise.
  const config = loadConfig({
    PORT: '0',
    RATE_LIMIT_PER_MINUTE: String(options.rateLimitPerMinute ?? 60),
    PUBLIC_BASE_URL: 'https://api.example.test',
    TRUSTED_PROXIES: 'loopback',
    ...options.env,
  });
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const app = await createApp({
    db,
    config,
    logger: createLogger('info', sink),
    handlers: options.handlers,
    figureRenderer: options.figureRenderer ?? sharedRenderer(Math.max(1, config.figureWorkers)),
    upstream: options.upstream,
    clock: options.clock ?? new FastForwardClock(),
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  listenTo(baseUrl, options.handlers);
  return {
    baseUrl,
    httpServer: server,
    logLines,
    settled: async () => {
      if (!(await (app.locals.inFlight as InFlight).drain(Date.now() + 30_000))) throw new Error('the server still owed ledger writes after 30 s');
    },
    close: async () => {
      stopListening(baseUrl);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Keep-alive connections last 65 s; a test's are done when it closes the server.
      server.closeAllConnections();
      await closed;
      // The figure runner stops with the server; wait until it has handed back its claims.
      await (app.locals.figureRunner as FigureJobRunner).stop();
    },
  };
}

/** A new account holding `credits` with one key. */
export async function newCaller(db: Knex, credits: number): Promise<{ accountId: string; keyId: string; key: string }> {
  const account = await createAccount(db, { name: `test-${Date.now()}-${Math.random()}`, credits });
  const key = await createKey(db, account.id, 'test');
  return { accountId: account.id, keyId: key.id, key: key.key };
}

/** A random address of the IPv6 documentation range, each in its own /64 (the failed-key limit counts IPv6 clients by /64). */
export function documentationAddress(): string {
  return `2001:db8:${randomBytes(6).toString('hex').match(/.{4}/g)!.join(':')}::1`;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export async function call(
  baseUrl: string,
  path: string,
  options: {
    key?: string;
    keyHeader?: 'bearer' | 'x-api-key';
    body?: unknown;
    rawBody?: string;
    contentType?: string;
    method?: string;
    /** The client address the server sees (through X-Forwarded-For from loopback); a fresh one per call by default. */
    clientAddress?: string;
    /** More request headers (Idempotency-Key, Accept...). */
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  // A fresh documentation-range address per call keeps the failed-key limit of one test from another's.
  const headers: Record<string, string> = { 'x-forwarded-for': options.clientAddress ?? documentationAddress(), ...options.headers };
  if (options.key !== undefined) {
    if (options.keyHeader === 'x-api-key') headers['x-api-key'] = options.key;
    else headers.authorization = `Bearer ${options.key}`;
  }
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await fetch(`${baseUrl}${path}`, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  noteAnswer(baseUrl, path, response.status, parsed);
  return { status: response.status, headers: response.headers, body: parsed, text };
}
