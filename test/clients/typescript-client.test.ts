import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { expect } from 'chai';
import {
  InsufficientCreditsError,
  RateLimitedError,
  ResearchTools,
  ResearchToolsError,
  type ClientOptions,
  type FinishedFigure,
} from '../../clients/typescript/dist/index.js';
import { describeRecordings, recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { post } from './proxy.ts';
import { FIGURE_DESCRIPTION, PNG_SIGNATURE, oeisAnswer, rateLimitedAnswer, useTestBed } from './test-bed.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** What a call threw, for exact assertions; fails when it threw nothing. */
async function thrown(call: () => Promise<unknown>): Promise<ResearchToolsError> {
  try {
    await call();
  } catch (error) {
    return error as ResearchToolsError;
  }
  throw new Error('the call threw nothing');
}

describeOnEachEngine('the TypeScript client against the server', (engine) => {
  const bed = useTestBed(engine);
  /** The waits the client asked for, in milliseconds; the default test client does not really wait. */
  const sleeps: number[] = [];
  const client = (apiKey: string, options: ClientOptions = {}) =>
    new ResearchTools({ apiKey, baseUrl: bed().proxy.url, sleep: async (ms) => void sleeps.push(ms), ...options });
  beforeEach(() => (sleeps.length = 0));

  it('a free call: the key and server come from RESEARCH_TOOLS_API_KEY and RESEARCH_TOOLS_BASE_URL, nothing is charged', async () => {
    const caller = await bed().caller(10);
    const saved = { key: process.env.RESEARCH_TOOLS_API_KEY, url: process.env.RESEARCH_TOOLS_BASE_URL };
    process.env.RESEARCH_TOOLS_API_KEY = caller.key;
    process.env.RESEARCH_TOOLS_BASE_URL = `${bed().proxy.url}/`;
    let rt: ResearchTools;
    try {
      rt = new ResearchTools();
    } finally {
      for (const [name, value] of [
        ['RESEARCH_TOOLS_API_KEY', saved.key],
        ['RESEARCH_TOOLS_BASE_URL', saved.url],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect([rt.baseUrl, rt.creditsRemaining]).to.deep.equal([bed().proxy.url, undefined]);
    const result = await rt.listCapabilities({ discipline: 'astro' });
    expect([result.summary, result.records.length, result.credits_used, result.records[0]!.data.pack]).to.deep.equal([
      '3 capabilities with 3 tools in the astro pack.',
      3,
      0,
      'astro',
    ]);
    expect(rt.creditsRemaining).to.equal(10);
    expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 10, ledger: 10 });
    const [request] = bed().proxy.requestsTo('POST', '/api/v1/list_capabilities');
    expect(request!.headers.authorization).to.equal(`Bearer ${caller.key}`);
    expect(request!.headers['idempotency-key']).to.match(UUID);
  });

  it('a charged call answers typed records, and creditsRemaining the balance after it', async () => {
    bed().upstream.on('/search', oeisAnswer());
    const caller = await bed().caller(10);
    const rt = client(caller.key);
    const result = await rt.lookupIntegerSequence({ query: 'A000045' });
    const [record] = result.records;
    expect([result.summary, result.credits_used, record!.id, record!.data.a_number, record!.data.terms.slice(0, 6)]).to.deep.equal([
      '1 integer sequence for "A000045".',
      1,
      'oeis:A000045',
      'A000045',
      ['0', '1', '1', '2', '3', '5'],
    ]);
    expect(result.call_id).to.match(/^call_[0-9a-f]{32}$/);
    expect(rt.creditsRemaining).to.equal(9);
    expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 9, ledger: 9 });
  });

  it('402 insufficient_credits is thrown as InsufficientCreditsError with its code, message and status; no upstream is asked', async () => {
    bed().upstream.on('/search', oeisAnswer());
    const caller = await bed().caller(0);
    const rt = client(caller.key);
    // a query of its own: the server's upstream cache holds none for it
    const error = await thrown(() => rt.lookupIntegerSequence({ query: '2, 3, 5, 8, 13, 21' }));
    expect(error).to.be.instanceOf(InsufficientCreditsError);
    expect(error).to.be.instanceOf(ResearchToolsError);
    expect([error.name, error.code, error.status, error.message]).to.deep.equal([
      'InsufficientCreditsError',
      'insufficient_credits',
      402,
      'lookup_integer_sequence costs 1 credit; the account holds 0',
    ]);
    expect([rt.creditsRemaining, bed().upstream.hits.length, sleeps]).to.deep.equal([0, 0, []]);
  });

  it('400 invalid_input is thrown with the message naming the argument; nothing is retried', async () => {
    const caller = await bed().caller(10);
    const rt = client(caller.key);
    const error = await thrown(() => rt.call('lookup_integer_sequence', { query: 'A000045', limit: 0 }));
    expect([error.name, error.code, error.status, error.message]).to.deep.equal(['InvalidInputError', 'invalid_input', 400, 'limit: must be >= 1']);
    expect([bed().proxy.requests.length, sleeps]).to.deep.equal([1, []]);
  });

  it('a 429 is waited out for its Retry-After and retried with the same Idempotency-Key, then answered and charged once', async () => {
    bed().upstream.on('/search', oeisAnswer());
    bed().proxy.once(post('/api/v1/lookup_integer_sequence'), rateLimitedAnswer(7));
    const caller = await bed().caller(10);
    const rt = client(caller.key);
    const result = await rt.lookupIntegerSequence({ query: 'A000045' });
    expect([result.records[0]!.id, sleeps, rt.creditsRemaining]).to.deep.equal(['oeis:A000045', [7000], 9]);
    const requests = bed().proxy.requestsTo('POST', '/api/v1/lookup_integer_sequence');
    expect(requests.map((request) => request.outcome)).to.deep.equal(['answered', 'forwarded']);
    expect(requests[0]!.headers['idempotency-key']).to.match(UUID).and.equal(requests[1]!.headers['idempotency-key']);
    expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 9, ledger: 9 });
  });

  it('retries stop at maxRetries: the last 429 is thrown as RateLimitedError with its Retry-After', async () => {
    for (let i = 0; i < 3; i += 1) bed().proxy.once(post('/api/v1/lookup_integer_sequence'), rateLimitedAnswer(2));
    const caller = await bed().caller(10);
    const rt = client(caller.key, { maxRetries: 2 });
    const error = await thrown(() => rt.lookupIntegerSequence({ query: 'A000045' }));
    expect(error).to.be.instanceOf(RateLimitedError);
    expect([error.code, error.status, error.retryAfterMs, sleeps]).to.deep.equal(['rate_limited', 429, 2000, [2000, 2000]]);
    expect(
      bed()
        .proxy.requestsTo('POST', '/api/v1/lookup_integer_sequence')
        .map((request) => request.outcome),
    ).to.deep.equal(['answered', 'answered', 'answered']);
  });

  it('a charged call whose answer is lost on the way back is retried with the same Idempotency-Key and charged once', async () => {
    bed().upstream.on('/search', oeisAnswer());
    bed().proxy.once(post('/api/v1/lookup_integer_sequence'), { dropAnswer: true });
    const caller = await bed().caller(10);
    const rt = client(caller.key);
    // a query of its own: the server's upstream cache holds none for it
    const result = await rt.lookupIntegerSequence({ query: '1, 2, 3, 5, 8, 13' });
    const requests = bed().proxy.requestsTo('POST', '/api/v1/lookup_integer_sequence');
    expect(requests.map((request) => request.outcome)).to.deep.equal(['dropped', 'forwarded']);
    expect(requests[0]!.headers['idempotency-key']).to.match(UUID).and.equal(requests[1]!.headers['idempotency-key']);
    // The server ran the call once; the retry got its stored answer.
    expect([result.records[0]!.id, result.credits_used, bed().upstream.hitsOn('/search').length, rt.creditsRemaining]).to.deep.equal(['oeis:A000045', 1, 1, 9]);
    expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 9, ledger: 9 });
    // One wait after the network failure: the first backoff, 0.5 s with jitter.
    expect(sleeps).to.have.length(1);
    expect(sleeps[0]).to.be.within(250, 500);
  });

  it('createFigure with wait polls get_figure until the figure is finished and returns its PNG bytes; the figure is charged once', async () => {
    const caller = await bed().caller(10);
    const polls: number[] = [];
    const rt = client(caller.key, { sleep: (ms) => new Promise((resolve) => setTimeout(() => resolve(void polls.push(ms)), ms)) });
    const figure: FinishedFigure<unknown> = await rt.createFigure({ description: FIGURE_DESCRIPTION, kind: 'workflow' }, { wait: true, pollIntervalMs: 100 });
    expect(figure.figureId).to.match(/^fig_/);
    expect([...figure.png.slice(0, 8)]).to.deep.equal(PNG_SIGNATURE);
    expect(figure.pngUrl.startsWith(`${bed().proxy.url}/files/`)).to.equal(true);
    const served = new Uint8Array(await (await fetch(figure.pngUrl)).arrayBuffer());
    expect(Buffer.from(figure.png).equals(Buffer.from(served))).to.equal(true);
    // create_figure answered pending (FIGURE_SYNC_WAIT_MS=0); every poll came after one wait of the interval asked for.
    const pollCalls = bed().proxy.requestsTo('POST', '/api/v1/get_figure');
    expect(pollCalls.length).to.be.at.least(1);
    expect(polls).to.deep.equal(pollCalls.map(() => 100));
    expect(rt.creditsRemaining).to.equal(5);
    expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 5, ledger: 5 });
  });

  it('createFigure with wait gives up with figure_timeout, without polling, when the next wait would pass waitTimeoutMs', async () => {
    const caller = await bed().caller(10);
    const rt = client(caller.key);
    const error = await thrown(() => rt.createFigure({ description: FIGURE_DESCRIPTION }, { wait: true, pollIntervalMs: 1000, waitTimeoutMs: 500 }));
    expect([error.name, error.code, error.status]).to.deep.equal(['ResearchToolsError', 'figure_timeout', undefined]);
    expect(error.message).to.match(/^figure fig_\S+ was still rendering after 0 ms of polling; poll get_figure later$/);
    expect([bed().proxy.requestsTo('POST', '/api/v1/get_figure').length, sleeps]).to.deep.equal([0, []]);
  });

  it('createFigure without wait answers the pending result with its figure_id', async () => {
    const caller = await bed().caller(10);
    const result = await client(caller.key).createFigure({ description: FIGURE_DESCRIPTION });
    expect([result.extra?.status, result.extra?.poll_after_s, result.extra?.figure_id.startsWith('fig_')]).to.deep.equal(['pending', 30, true]);
  });

  describeRecordings('crossref', () => {
    it('searchPapers with citationFormat bibtex answers the papers as BibTeX, charged as the JSON call', async () => {
      bed().upstream.on('/works', json(recording('crossref', 'works-query-ecology-rows2.json')));
      const caller = await bed().caller(10);
      const rt = client(caller.key);
      const bibtex: string = await rt.searchPapers({ query: 'ecology', sources: ['crossref'], limit: 2 }, { citationFormat: 'bibtex' });
      const parsed = parseBibtex(bibtex);
      expect(parsed.errors).to.deep.equal([]);
      expect(parsed.entries.map((entry) => entry.fields.doi)).to.deep.equal(['10.1093/obo/9780199830060-0238', '10.1093/obo/9780199830060-0023']);
      expect(bed().proxy.requestsTo('POST', '/api/v1/search_papers')[0]!.headers.accept).to.equal('application/x-bibtex');
      expect(rt.creditsRemaining).to.equal(9);
    });
  });
});

describeOnEachEngine('the TypeScript client against a server whose rate limit is reached', (engine) => {
  const bed = useTestBed(engine, { rateLimitPerMinute: 1 });

  it("throws the server's 429 as RateLimitedError at once when its Retry-After is longer than maxRetryWaitMs", async () => {
    bed().upstream.on('/search', oeisAnswer());
    const caller = await bed().caller(10);
    const sleeps: number[] = [];
    const rt = new ResearchTools({ apiKey: caller.key, baseUrl: bed().proxy.url, maxRetryWaitMs: 500, sleep: async (ms) => void sleeps.push(ms) });
    await rt.lookupIntegerSequence({ query: 'A000045' });
    const error = await thrown(() => rt.lookupIntegerSequence({ query: 'A000045' }));
    expect(error).to.be.instanceOf(RateLimitedError);
    expect([error.code, error.status, sleeps]).to.deep.equal(['rate_limited', 429, []]);
    expect(error.retryAfterMs).to.be.within(1000, 60_000);
    expect(await bed().credits(caller.accountId)).to.deep.equal({ balance: 9, ledger: 9 });
  });
});
