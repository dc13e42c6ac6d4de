import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { PARALLEL_REFERENCES } from '../../src/tools/verify-references.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { eventually } from '../support/eventually.ts';
import { json, startFakeUpstream, type FakeUpstream, type Hit } from '../support/fake-upstream.ts';
import { connectAgent, SDK_CLIENTS, type AgentClient, type Progress } from '../support/mcp-client.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { GatedRenderer } from '../figures/helpers.ts';

const NO_WORKS = { crossref: json({ status: 'ok', message: { items: [] } }), openalex: json({ meta: { count: 0 }, results: [] }) };
const VERIFY_PRICE = 2;
const FIGURE_PRICE = 5;

/** References no index knows, each with a token of its own in its title (so its two requests, one per index, can be told apart). */
function references(count: number): { texts: string[]; tokens: string[] } {
  const run = randomBytes(4).toString('hex');
  const tokens = Array.from({ length: count }, (_, index) => `q${run}r${index + 1}`);
  return { tokens, texts: tokens.map((token, index) => `Smith J, Jones K. A study of item ${token} in tests. Journal of Tests. 2020;${index + 1}:1-10.`) };
}

/** The reference token a request of verify_references carries (Crossref's citation query, OpenAlex's title filter). */
function tokenOf(hit: Hit): string | undefined {
  return /q[0-9a-f]{8}r\d+/.exec(`${hit.query.get('query.bibliographic') ?? ''} ${hit.query.get('filter') ?? ''}`)?.[0];
}

/** What a client heard, in order: progress notifications, then the result (or the failure). */
type Heard = { kind: 'progress'; progress: Progress } | { kind: 'result' };

async function recentCalls(baseUrl: string, key: string): Promise<Array<{ tool: string; status: string; credits: number }>> {
  return (await call(baseUrl, '/api/v1/account', { key })).body.recent_calls;
}

describeOnEachEngine('progress and cancellation of long calls over MCP', (engine) => {
  let crossref: FakeUpstream;
  let openalex: FakeUpstream;
  let server: TestServer;
  let client: AgentClient | undefined;
  before(async () => {
    [crossref, openalex] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
    const env = { SOURCE_CROSSREF_URL: crossref.url, SOURCE_OPENALEX_URL: openalex.url, SOURCE_OPENALEX_KEY: 'test-key' };
    server = await startServer(engine.db, { env, rateLimitPerMinute: 1000 });
  });
  after(async () => {
    await server.close();
    await Promise.all([crossref.close(), openalex.close()]);
  });
  beforeEach(() => {
    for (const fake of [crossref, openalex]) {
      fake.release();
      fake.reset();
    }
  });
  afterEach(async () => client?.close());

  for (const clientName of SDK_CLIENTS) {
    describe(`with the official ${clientName} client`, () => {
      it('verify_references with a progress token: notifications of references checked come before the result, once the call passes a second', async () => {
        // Slow indexes: each answer takes 300 ms, and Crossref takes one request at a time, so 6 references take well over a second.
        crossref.on('/works', { ...NO_WORKS.crossref, delayMs: 300 });
        openalex.on('/works', { ...NO_WORKS.openalex, delayMs: 300 });
        const caller = await newCaller(engine.db, 10);
        client = await connectAgent(clientName, server.baseUrl, caller.key);
        const heard: Heard[] = [];
        const result = await client.callTool(
          'verify_references',
          { references: references(6).texts },
          { onprogress: (progress) => heard.push({ kind: 'progress', progress }) },
        );
        heard.push({ kind: 'result' });

        expect(result.isError).to.not.equal(true);
        expect((result.structuredContent as { summary: string }).summary).to.equal('6 references checked: 0 verified, 0 corrected, 6 not found, 0 uncertain.');
        const notices = heard.flatMap((each) => (each.kind === 'progress' ? [each.progress] : []));
        expect(notices.length).to.be.greaterThan(0);
        expect(heard.at(-1)).to.deep.equal({ kind: 'result' });
        expect(notices.map((notice) => notice.total)).to.deep.equal(notices.map(() => 6));
        const values = notices.map((notice) => notice.progress);
        expect(values, 'progress only grows').to.deep.equal([...new Set(values)].sort((a, b) => a - b));
        expect(notices.at(-1)).to.deep.equal({ progress: 6, total: 6, message: '6 of 6 references checked' });
        expect(await getBalance(engine.db, caller.accountId)).to.equal(10 - VERIFY_PRICE);
      });

      it('a verify_references call of 50 references cancelled after its first progress notification: nothing more reaches the indexes, nothing is charged, the call log says cancelled', async () => {
        crossref.on('/works', { ...NO_WORKS.crossref, delayMs: 100 });
        openalex.on('/works', { ...NO_WORKS.openalex, delayMs: 100 });
        const caller = await newCaller(engine.db, 10);
        client = await connectAgent(clientName, server.baseUrl, caller.key);
        const { texts, tokens } = references(50);
        const cancel = new AbortController();
        let firstProgress!: () => void;
        const progressed = new Promise<void>((resolve) => (firstProgress = resolve));
        const calling = client.callTool('verify_references', { references: texts }, { onprogress: () => firstProgress(), signal: cancel.signal }).then(
          () => 'answered',
          () => 'failed',
        );
        await progressed;

        // The indexes stop answering, so no reference can finish and start the next one, and the
        // requests the call sends come to an end. It has settled, with nothing in flight, once each of
        // the references under way has its OpenAlex request in (OpenAlex takes four at once), and
        // Crossref (one at a time) holds one unanswered request or has every reference's.
        crossref.hold();
        openalex.hold();
        const hits = () => [...crossref.hits, ...openalex.hits];
        const settled = () => {
          const done = (token: string) => hits().filter((hit) => tokenOf(hit) === token && hit.answered).length === 2;
          const underWay = tokens.filter((token) => openalex.hits.some((hit) => tokenOf(hit) === token) && !done(token));
          const crossrefHeld = crossref.hits.filter((hit) => !hit.answered).length;
          const crossrefHasAll = underWay.every((token) => crossref.hits.some((hit) => tokenOf(hit) === token));
          return underWay.length === PARALLEL_REFERENCES && (crossrefHeld === 1 || crossrefHasAll);
        };
        expect(
          await eventually(
            async () => settled(),
            (done) => done,
          ),
          'settled',
        ).to.equal(true);
        const beforeCancel = hits().length;
        const inFlight = hits().filter((hit) => !hit.answered);
        expect(beforeCancel, 'references asked before the cancellation').to.be.lessThan(2 * tokens.length);
        cancel.abort();
        expect(await calling).to.equal('failed');

        const calls = await eventually(
          () => recentCalls(server.baseUrl, caller.key),
          (rows) => rows.length > 0,
        );
        expect(calls).to.deep.equal([{ ...calls[0], tool: 'verify_references', status: 'cancelled', credits: 0 }]);
        // The requests under way were cut off, not waited for.
        await eventually(
          async () => inFlight.filter((hit) => hit.abandoned).length,
          (count) => count === inFlight.length,
        );
        expect(inFlight.every((hit) => hit.abandoned)).to.equal(true);

        // The indexes answer again; a call of another caller through the same queues comes after anything the cancelled call had left in them.
        crossref.release();
        openalex.release();
        const other = await newCaller(engine.db, 10);
        const barrier = await call(server.baseUrl, '/api/v1/verify_references', { key: other.key, body: { references: references(1).texts } });
        expect(barrier.status).to.equal(200);
        const cancelledCallsHits = hits().filter((hit) => tokens.includes(tokenOf(hit)!));
        expect(cancelledCallsHits.length, 'requests of the cancelled call').to.equal(beforeCancel);
        expect(await getBalance(engine.db, caller.accountId)).to.equal(10);
        expect(await ledgerSum(engine.db, caller.accountId)).to.equal(10);
      });
    });
  }
});

describeOnEachEngine('progress of a figure render over MCP', (engine) => {
  let server: TestServer;
  let renderer: GatedRenderer;
  let client: AgentClient | undefined;
  before(async () => {
    renderer = new GatedRenderer();
    const env = { FIGURE_SYNC_WAIT_MS: '60000', FIGURE_QUEUE: `test-${randomBytes(6).toString('hex')}` };
    server = await startServer(engine.db, { env, figureRenderer: renderer, rateLimitPerMinute: 1000 });
  });
  after(async () => server.close());
  afterEach(async () => client?.close());

  it('create_figure with a progress token waits for the image, telling its render states before the result', async () => {
    const caller = await newCaller(engine.db, 20);
    client = await connectAgent('SDK 2.x at 2026-07-28', server.baseUrl, caller.key);
    const heard: Heard[] = [];
    // The render waits until the client has been told the figure is rendering.
    const result = await client.callTool(
      'create_figure',
      { description: 'TNF-α binds TNFR1, which recruits TRADD. TRADD activates the IKK complex.', kind: 'mechanism' },
      {
        onprogress: (progress) => {
          heard.push({ kind: 'progress', progress });
          if (progress.progress === 2) renderer.release();
        },
      },
    );
    heard.push({ kind: 'result' });
    const figureId = (result.structuredContent as { extra: { figure_id: string } }).extra.figure_id;
    // Queued (1 of 3) is told too when the claim of the figure came after the first second.
    expect(heard.slice(0, -3)).to.deep.equal(
      heard.slice(0, -3).map(() => ({ kind: 'progress', progress: { progress: 1, total: 3, message: `figure ${figureId}: queued` } })),
    );
    expect(heard.slice(-3)).to.deep.equal([
      { kind: 'progress', progress: { progress: 2, total: 3, message: `figure ${figureId}: rendering` } },
      { kind: 'progress', progress: { progress: 3, total: 3, message: `figure ${figureId}: finished` } },
      { kind: 'result' },
    ]);
    expect(result.structuredContent).to.deep.include({ credits_used: 0 });
    expect((result.structuredContent as { extra: object }).extra).to.deep.include({ status: 'finished', credits_used: FIGURE_PRICE });
    expect(await getBalance(engine.db, caller.accountId)).to.equal(20 - FIGURE_PRICE);
  });

  it('create_figure without a progress token still answers pending at once', async () => {
    const caller = await newCaller(engine.db, 20);
    client = await connectAgent('SDK 2.x at 2026-07-28', server.baseUrl, caller.key);
    const result = await client.callTool('create_figure', { description: 'A activates B. B inhibits C.', kind: 'mechanism' });
    expect((result.structuredContent as { extra: object }).extra).to.deep.include({ status: 'pending', credits_used: 0 });
  });
});
