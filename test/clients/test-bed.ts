/**
 * What both clients' tests run against: the real server on a real database, its upstreams replaced by
 * fake ones serving recorded answers, and the fault-playing proxy in front of it. Clients talk to the
 * proxy; the server's PUBLIC_BASE_URL is the proxy too, so figure file URLs lead back through it.
 */
import type { Knex } from 'knex';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { fixture } from '../connectors/recordings.ts';
import type { EngineUnderTest } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { newCaller, startServer, type TestServer } from '../support/server.ts';
import { startProxy, type Proxy } from './proxy.ts';

export interface TestBed {
  proxy: Proxy;
  server: TestServer;
  /** OEIS (lookup_integer_sequence) and Crossref (search_papers), on one fake upstream. */
  upstream: FakeUpstream;
  db: Knex;
  /** A new account with `credits` and one key. */
  caller(credits: number): Promise<{ accountId: string; key: string }>;
  /** The account's balance, and the sum of its ledger (always the same). */
  credits(accountId: string): Promise<{ balance: number; ledger: number }>;
}

/** The answer of the fake OEIS to `A000045`: one sequence. */
export const oeisAnswer = () => json(fixture('oeis', 'hand-made-bare-array-fibonacci.json'));

/** Starts the test bed in the suite's `before` hook and stops it in `after`; `rateLimitPerMinute` as the server's. */
export function useTestBed(engine: EngineUnderTest, options: { rateLimitPerMinute?: number } = {}): () => TestBed {
  let bed: TestBed | undefined;
  before(async function () {
    const proxy = await startProxy();
    const upstream = await startFakeUpstream();
    const server = await startServer(engine.db, {
      rateLimitPerMinute: options.rateLimitPerMinute,
      env: {
        PUBLIC_BASE_URL: proxy.url,
        // create_figure answers pending at once: the clients must poll get_figure
        FIGURE_SYNC_WAIT_MS: '0',
        SOURCE_OEIS_URL: upstream.url,
        SOURCE_CROSSREF_URL: upstream.url,
      },
    });
    proxy.target = server.baseUrl;
    bed = {
      proxy,
      server,
      upstream,
      db: engine.db,
      caller: (credits) => newCaller(engine.db, credits),
      credits: async (accountId) => ({ balance: await getBalance(engine.db, accountId), ledger: await ledgerSum(engine.db, accountId) }),
    };
  });
  beforeEach(() => {
    bed?.proxy.reset();
    bed?.upstream.reset();
  });
  after(async function () {
    await bed?.server.close();
    await bed?.upstream.close();
    await bed?.proxy.close();
  });
  return () => {
    if (!bed) throw new Error('the test bed starts in the suite before hook; use it inside tests');
    return bed;
  };
}

/** A 429 as the server answers it, for the proxy to play. */
export function rateLimitedAnswer(seconds: number) {
  return {
    answer: {
      status: 429,
      headers: { 'retry-after': String(seconds) },
      body: { error: { code: 'rate_limited', message: `rate limit of 60 requests per minute reached; retry after ${seconds} s`, retry_after_s: seconds } },
    },
  };
}

/** The first eight bytes of every PNG file. */
export const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A Mermaid flowchart that renders quickly. */
export const FIGURE_DESCRIPTION = 'flowchart LR\n  A[Sample] --> B[Sequence]\n  B --> C[Analyse]';
