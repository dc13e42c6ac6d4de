/**
 * Upstream budgets over a simulated day, across two server processes: fake upstreams that enforce
 * the documented quotas (OpenAlex's daily dollars by request kind, BLS's daily queries without a key,
 * OECD's hourly data downloads) never see a request beyond them; calls past a quota answer from the
 * cache, or 502 without a charge, with a reason that names the budget and when it resets; and the
 * budget opens again at the time it stated.
 *
 * The two "processes" are two server instances in this test process, each with its own app, upstream
 * client, caches, budget counter and breakers: all they share is the database, or Redis, as two
 * processes on two machines would. One fast-forward clock stands for the machines' clocks (kept in
 * step by NTP in production); the fakes stamp requests with it. Separate OS processes would need a
 * way to move their clocks that the production code would have to carry; in-process instances
 * share nothing in memory that matters here (module-level state is only the metrics registry).
 */
import { expect } from 'chai';
import { recording } from '../connectors/recordings.ts';
import { getBalance } from '../../src/ledger/index.ts';
import { FastForwardClock } from '../support/clock.ts';
import { describeOnEachEngine, type EngineUnderTest } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream, type Hit, type Reply } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type Answer, type TestServer } from '../support/server.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The simulated day: far from today, so nothing counted in real time could meet it. */
const D = Date.UTC(2031, 5, 10);
const iso = (ms: number) => new Date(ms).toISOString();

const WORK = { id: 'https://openalex.org/W2162348455', title: 'A paper', display_name: 'A paper', publication_year: 2020 };
const BLS_SERIES = {
  status: 'REQUEST_SUCCEEDED',
  message: [],
  Results: { series: [{ seriesID: 'CUUR0000SA0', data: [{ year: '2020', period: 'M01', periodName: 'January', value: '257.971', footnotes: [{}] }] }] },
};

/** Fakes that keep each documented quota as the upstream would, and note any request beyond it. */
function enforceQuotas(fake: FakeUpstream, beyond: string[]): void {
  const dollarsByDay = new Map<string, number>();
  fake.under('/openalex/', (hit: Hit): Reply => {
    // In millionths of a dollar: singleton free, list/filter $0.0001, search= $0.001; $1 a UTC day.
    const cost = /^\/openalex\/(works|sources)\/./.test(hit.path) ? 0 : hit.query.has('search') ? 1000 : 100;
    const day = iso(hit.at).slice(0, 10);
    const spent = dollarsByDay.get(day) ?? 0;
    if (spent + cost > 1_000_000) {
      beyond.push(`openalex on ${day}`);
      return { status: 429, body: '{"error":"Daily limit exceeded"}', contentType: 'application/json' };
    }
    dollarsByDay.set(day, spent + cost);
    return json({ meta: { count: 1 }, results: [WORK] });
  });
  const blsByDay = new Map<string, number>();
  fake.under('/bls/', (hit: Hit): Reply => {
    const day = iso(hit.at).slice(0, 10);
    const queries = (blsByDay.get(day) ?? 0) + 1;
    blsByDay.set(day, queries);
    if (queries > 25) {
      beyond.push(`bls on ${day}`);
      return json({
        status: 'REQUEST_NOT_PROCESSED',
        message: ['The daily threshold for total number of requests allocated to the user has been reached.'],
        Results: {},
      });
    }
    return json(BLS_SERIES);
  });
  const csv = recording('oecd', 'data-v1-kei-gbr-irlt-2023.csv');
  fake.under('/oecd/', (hit: Hit): Reply => {
    const lastHour = fake.hits.filter((other) => other.path.startsWith('/oecd/data/') && other.at > hit.at - HOUR && other.at <= hit.at);
    if (lastHour.length > 60) {
      beyond.push(`oecd at ${iso(hit.at)}`);
      return { status: 429, body: 'blocked', contentType: 'text/plain' };
    }
    return { body: csv, contentType: 'application/vnd.sdmx.data+csv; charset=utf-8' };
  });
}

function describeSimulatedDay(engine: EngineUnderTest, store: string, env: Record<string, string>): void {
  describe(`sharing ${store}`, () => {
    const clock = new FastForwardClock();
    /** Moves the shared clock to `ms` (never back: pacing waits may already have moved it further). */
    const at = (ms: number) => (clock.skippedMs = Math.max(clock.skippedMs, ms - Date.now()));
    const beyond: string[] = [];
    let fake: FakeUpstream;
    let servers: TestServer[] = [];
    let caller: { accountId: string; key: string };
    let answered = 0;
    const ask = async (index: number, tool: string, body: object): Promise<Answer> => {
      const answer = await call(servers[index % 2]!.baseUrl, `/api/v1/${tool}`, { key: caller.key, body });
      if (answer.status === 200) answered += 1;
      else expect([answer.status, answer.body?.error?.code]).to.deep.equal([502, 'upstream_error']);
      return answer;
    };

    before(async function () {
      this.timeout(60_000);
      at(D);
      fake = await startFakeUpstream(() => clock.now());
      enforceQuotas(fake, beyond);
      const settings = {
        SOURCE_OPENALEX_URL: `${fake.url}/openalex`,
        SOURCE_OPENALEX_KEY: 'openalex-test-key',
        SOURCE_BLS_URL: `${fake.url}/bls`,
        SOURCE_OECD_URL: `${fake.url}/oecd`,
        ...env,
      };
      servers = await Promise.all([0, 1].map(() => startServer(engine.db, { env: settings, clock, rateLimitPerMinute: 1_000_000 })));
      caller = await newCaller(engine.db, 100_000);
    });
    after(async () => {
      await Promise.all(servers.map((server) => server.close()));
      await fake?.close();
    });

    it('OpenAlex: $1 of searches a UTC day between both; past it repeats come from the cache, new searches are 502 uncharged; at midnight it opens again', async function () {
      this.timeout(300_000);
      const outcomes: Array<{ status: number; repeat: boolean; message?: string }> = [];
      const lastAnswered: string[] = [];
      for (let index = 0; index < 1250; index += 1) {
        at(D + 10 * 60_000 + index * 65_000);
        // Every tenth call repeats the last query the same server answered.
        const repeat = index % 10 === 9;
        const query = repeat ? lastAnswered[index % 2]! : `budget query ${index}`;
        const answer = await ask(index, 'search_papers', { query, sources: ['openalex'] });
        if (answer.status === 200) lastAnswered[index % 2] = query;
        outcomes.push({ status: answer.status, repeat, message: answer.body?.error?.message });
      }
      const searches = fake.hits.filter((hit) => hit.path === '/openalex/works');
      expect(beyond).to.deep.equal([]);
      expect(searches.length).to.equal(1000);
      expect(outcomes.filter((outcome) => outcome.repeat).every((outcome) => outcome.status === 200)).to.equal(true);
      const refused = outcomes.filter((outcome) => outcome.status === 502);
      expect(refused.length).to.equal(outcomes.filter((outcome) => !outcome.repeat).length - 1000);
      expect(new Set(refused.map((outcome) => outcome.message))).to.deep.equal(
        new Set([`no source answered: openalex was not asked: its daily budget (UTC day) of $1.00 is spent ($1.00 used); it resets at ${iso(D + DAY)}`]),
      );
      at(D + DAY);
      const nextDay = await ask(0, 'search_papers', { query: 'the first query of the next day', sources: ['openalex'] });
      expect(nextDay.status).to.equal(200);
      expect(fake.hits.filter((hit) => hit.path === '/openalex/works').length).to.equal(1001);
    });

    it('BLS without a key: 25 queries in any 24 hours between both, the rest 502 uncharged, until the stated reset', async function () {
      this.timeout(120_000);
      const start = D + 2 * DAY;
      const messages: string[] = [];
      for (let index = 0; index < 40; index += 1) {
        at(start + 15 * 60_000 + index * 30 * 60_000);
        const answer = await ask(index, 'get_series', { series_id: 'bls:CUUR0000SA0', start: String(1900 + index), end: String(1905 + index) });
        if (answer.status !== 200) messages.push(answer.body.error.message);
      }
      expect(beyond).to.deep.equal([]);
      expect(fake.hits.filter((hit) => hit.path.startsWith('/bls/')).length).to.equal(25);
      expect(messages).to.have.length(15);
      const reset = /resets at (\S+)$/.exec(messages.at(-1)!)![1]!;
      expect(messages.at(-1)).to.equal(
        `no source answered: bls was not asked: its budget for 24 hours of 25 requests is spent (25 requests used); it resets at ${reset}`,
      );
      // A request whose deadline reaches past the reset waits for it; this one's does not.
      at(Date.parse(reset) - 5 * 60_000);
      expect((await ask(0, 'get_series', { series_id: 'bls:CUUR0000SA0', start: '1850', end: '1851' })).body.error.message).to.equal(messages.at(-1));
      at(Date.parse(reset));
      expect((await ask(1, 'get_series', { series_id: 'bls:CUUR0000SA0', start: '1852', end: '1853' })).status).to.equal(200);
      expect(beyond).to.deep.equal([]);
    });

    it('OECD: 60 data downloads in any hour between both, the rest 502 uncharged, until the stated reset', async function () {
      this.timeout(120_000);
      const start = D + 4 * DAY;
      const messages: string[] = [];
      for (let index = 0; index < 100; index += 1) {
        at(start + index * 30_000);
        const answer = await ask(index, 'get_series', { series_id: 'oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&FREQ=M&MEASURE=IRLT', start: String(1900 + index) });
        if (answer.status !== 200) messages.push(answer.body.error.message);
      }
      expect(beyond).to.deep.equal([]);
      expect(fake.hits.filter((hit) => hit.path.startsWith('/oecd/data/')).length).to.equal(60);
      expect(messages).to.have.length(40);
      const reset = /resets at (\S+)$/.exec(messages.at(-1)!)![1]!;
      expect(messages.at(-1)).to.equal(
        `no source answered: oecd was not asked: its budget per hour of 60 requests is spent (60 requests used); it resets at ${reset}`,
      );
      // A request whose deadline reaches past the reset waits for it; this one's does not.
      at(Date.parse(reset) - 5 * 60_000);
      expect((await ask(0, 'get_series', { series_id: 'oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&FREQ=M&MEASURE=IRLT', start: '1800' })).body.error.message).to.equal(
        messages.at(-1),
      );
      at(Date.parse(reset));
      expect((await ask(1, 'get_series', { series_id: 'oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&FREQ=M&MEASURE=IRLT', start: '1801' })).status).to.equal(200);
      expect(beyond).to.deep.equal([]);
    });

    it('charged exactly the calls that were answered: every 502 cost nothing', async () => {
      expect(await getBalance(engine.db, caller.accountId)).to.equal(100_000 - answered);
    });
  });
}

describeOnEachEngine('upstream budgets over a simulated day, two server processes', (engine) => {
  describeSimulatedDay(engine, 'the database', {});
  if (redisUrl && (engine.name === 'mysql' || !process.env.DATABASE_URL)) describeSimulatedDay(engine, 'Redis', { REDIS_URL: redisUrl });
});
