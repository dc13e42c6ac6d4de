import { expect } from 'chai';
import { ApiError } from '../../src/errors.ts';
import { MemoryCache } from '../../src/upstream/cache.ts';
import { parseRetryAfter, UpstreamClient } from '../../src/upstream/client.ts';
import { HostGroupLimiter } from '../../src/upstream/limits.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { describeRecordings, recording } from '../connectors/recordings.ts';
import { FastForwardClock } from '../support/clock.ts';
import { eventually } from '../support/eventually.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';

/** The clients' waits skip ahead on this clock, and the fake upstream stamps each request with it. */
const clock = new FastForwardClock();

/** A client whose usgs-earthquakes, fred and gaia sources point at the fake upstream, with short timeouts. */
function clientFor(fake: FakeUpstream, overrides: Partial<{ timeoutMs: number; key: string }> = {}): UpstreamClient {
  const source = { url: fake.url, timeoutMs: overrides.timeoutMs ?? 400 };
  return new UpstreamClient({
    sources: { USGS_EARTHQUAKES: source, GAIA: source, FRED: { ...source, key: overrides.key }, OPENALEX: { ...source, key: 'k-oa' }, CROSSREF: source },
    contactEmail: 'ops@example.org',
    cache: new MemoryCache(),
    retry: { baseDelayMs: 5 },
    clock,
  });
}

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(UpstreamError);
    return error as UpstreamError;
  }
  throw new Error('expected the request to fail');
}

/**
 * A call's admission the test decides, which says when the client first waits for it (a request
 * that must go upstream awaits it before sending anything).
 */
function watchedAdmission(): { promise: Promise<void>; awaited: Promise<void>; admit(): void } {
  let admit!: () => void;
  let noteAwaited!: () => void;
  const awaited = new Promise<void>((resolve) => (noteAwaited = resolve));
  const promise = new Promise<void>((resolve) => (admit = resolve));
  const watch = <T extends (...args: never[]) => unknown>(method: T): T =>
    ((...args: Parameters<T>) => {
      noteAwaited();
      return method(...args);
    }) as T;
  promise.then = watch(promise.then.bind(promise)) as typeof promise.then;
  promise.catch = watch(promise.catch.bind(promise)) as typeof promise.catch;
  return { promise, awaited, admit };
}

describe('the upstream HTTP layer', () => {
  let fake: FakeUpstream;
  before(async () => {
    fake = await startFakeUpstream(() => clock.now());
  });
  after(async () => fake.close());
  beforeEach(() => fake.reset());

  describe('a successful request', () => {
    it('goes to the overridden base URL with a User-Agent naming the product and the contact address', async () => {
      fake.on('/query', json({ ok: true }));
      const answer = await clientFor(fake).getJson('usgs-earthquakes', { path: '/query', searchParams: { format: 'geojson', limit: 5, skipped: undefined } });
      expect(answer.body).to.deep.equal({ ok: true });
      expect(answer.fromCache).to.equal(false);
      expect(answer.retrievedAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(fake.hits).to.have.length(1);
      expect(fake.hits[0]!.query.toString()).to.equal('format=geojson&limit=5');
      expect(fake.hits[0]!.headers['user-agent']).to.match(/^research-tools-api\/\d+\.\d+\.\d+ \(research lookup service; mailto:ops@example\.org\)$/);
    });
    it('asks for gzip and reads a gzip-compressed body', async () => {
      fake.on('/query', { body: '{"compressed":true}', contentType: 'application/json', gzip: true });
      const answer = await clientFor(fake).getJson('usgs-earthquakes', { path: '/query' });
      expect(answer.body).to.deep.equal({ compressed: true });
      expect(fake.hits[0]!.headers['accept-encoding']).to.include('gzip');
    });
    it('sends form fields as a POST body', async () => {
      fake.on('/sync', json({ ok: true }));
      const answer = await clientFor(fake).getJson('gaia', { path: '/sync', form: { QUERY: 'SELECT 1', FORMAT: 'json' } });
      expect(answer.body).to.deep.equal({ ok: true });
      expect([fake.hits[0]!.method, fake.hits[0]!.body]).to.deep.equal(['POST', 'QUERY=SELECT+1&FORMAT=json']);
    });
    it('keeps integers beyond the safe range exact, as decimal strings', async () => {
      fake.on('/sync', json('{"data":[[5937144193345094528, 251.46088614856114, 12, "6636090334814214528"]]}'));
      const answer = await clientFor(fake).getJson<{ data: unknown[][] }>('gaia', { path: '/sync' });
      expect(answer.body.data[0]).to.deep.equal(['5937144193345094528', 251.46088614856114, 12, '6636090334814214528']);
    });
  });

  describe('retries', () => {
    it('after a 429 with Retry-After: 1 waits the second it was told, then succeeds', async () => {
      fake.on('/query', json({ error: 'slow down' }, { status: 429, headers: { 'retry-after': '1' } }), json({ ok: 2 }));
      const answer = await clientFor(fake, { timeoutMs: 2000 }).getJson('usgs-earthquakes', { path: '/query' });
      expect(answer.body).to.deep.equal({ ok: 2 });
      expect(fake.hits).to.have.length(2);
      expect(fake.hits[1]!.at - fake.hits[0]!.at).to.be.at.least(1000);
    });
    it('retries a 500 and a reset connection, then succeeds', async () => {
      fake.on('/query', json({ error: 'oops' }, { status: 500 }), { fault: 'reset' }, json({ ok: 3 }));
      const answer = await clientFor(fake).getJson('usgs-earthquakes', { path: '/query' });
      expect(answer.body).to.deep.equal({ ok: 3 });
      expect(fake.hits).to.have.length(3);
    });
    it('gives up after three attempts with the upstream reason in the message', async () => {
      fake.on('/query', { status: 503, body: 'Error 503: Service Unavailable\n\nThe catalogue is being updated.\n', contentType: 'text/plain' });
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect([error.kind, error.status, error.message]).to.deep.equal([
        'http_error',
        503,
        'usgs-earthquakes answered HTTP 503: The catalogue is being updated.',
      ]);
      expect(fake.hits).to.have.length(3);
    });
    it('does not wait for a Retry-After longer than the call may take', async () => {
      fake.on('/query', json({}, { status: 429, headers: { 'retry-after': '120' } }));
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.kind).to.equal('rate_limited');
      expect(error.message).to.equal('usgs-earthquakes answered HTTP 429; it asked to wait 120 s, longer than this call may take');
      expect(fake.hits).to.have.length(1);
    });
    it('does not retry a 400, and reports its reason from the FDSN text body', async () => {
      fake.on('/query', {
        status: 400,
        contentType: 'text/plain',
        body: 'Error 400: Bad Request\n\nBad starttime value "not-a-date". Valid values are ISO-8601 timestamps.\n\nUsage details are available from https://earthquake.usgs.gov/fdsnws/event/1\n',
      });
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.message).to.equal('usgs-earthquakes answered HTTP 400: Bad starttime value "not-a-date". Valid values are ISO-8601 timestamps.');
      expect(fake.hits).to.have.length(1);
    });
    it('reads Retry-After as seconds or as an HTTP date', () => {
      expect(parseRetryAfter('2')).to.equal(2000);
      expect(parseRetryAfter('Sun, 22 Nov 2026 05:00:10 GMT', Date.parse('2026-11-22T05:00:00Z'))).to.equal(10_000);
      expect(parseRetryAfter('soon')).to.equal(undefined);
      expect(parseRetryAfter(undefined)).to.equal(undefined);
    });
  });

  describe('faults become clean errors', () => {
    it('no answer at all is a timeout naming the time allowed', async () => {
      fake.on('/query', { fault: 'no_answer' });
      const error = await failure(clientFor(fake, { timeoutMs: 150 }).getJson('usgs-earthquakes', { path: '/query' }));
      expect([error.kind, error.message]).to.deep.equal(['timeout', 'usgs-earthquakes did not answer within 150 ms']);
    });
    it('a body that stalls half-way is a timeout', async () => {
      fake.on('/query', { fault: 'slow_body', body: '{"type":"FeatureCollection","features":[]}', firstBytes: 10 });
      const error = await failure(clientFor(fake, { timeoutMs: 150 }).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.kind).to.equal('timeout');
    });
    it('a body broken off before its announced length is a network error', async () => {
      fake.on('/query', { fault: 'truncated', body: '{"type":"FeatureCollection","features":[1,2,3,4,5,6,7,8]}' });
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.kind).to.equal('network');
      expect(error.message).to.match(/^usgs-earthquakes (broke off the answer|closed the connection) \(/);
    });
    it('garbage where JSON was expected is a bad body, quoted without control characters', async () => {
      fake.on('/query', { body: '\u0000\u0001garbage {not json', contentType: 'application/json' });
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect([error.kind, error.message]).to.deep.equal([
        'bad_body',
        'usgs-earthquakes answered with a body that is not valid JSON (truncated or another format), beginning "garbage {not json"',
      ]);
    });
    it('an HTML page with status 200 is refused, its markup never quoted', async () => {
      fake.on('/query', {
        body: '<!DOCTYPE html><html><head><title>Maintenance</title></head><body><script>x</script></body></html>',
        contentType: 'text/html',
      });
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.message).to.equal('usgs-earthquakes answered with an HTML page instead of JSON');
    });
    it('an HTML error page gives its title only', async () => {
      fake.on('/query', { status: 404, body: '<html><head><title>404 Not Found</title></head><body>…</body></html>', contentType: 'text/html' });
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.message).to.equal('usgs-earthquakes answered HTTP 404: an HTML page titled "404 Not Found"');
    });
    it('a TAP error VOTable gives its QUERY_STATUS message', async () => {
      fake.on('/sync', {
        status: 400,
        contentType: 'text/xml',
        body: '<?xml version="1.0"?><VOTABLE><RESOURCE type="results"><INFO name="QUERY_STATUS" value="ERROR">Incorrect ADQL query: Encountered "FROM" at line 1</INFO></RESOURCE></VOTABLE>',
      });
      const error = await failure(clientFor(fake).getJson('gaia', { path: '/sync' }));
      expect(error.message).to.equal('gaia answered HTTP 400: Incorrect ADQL query: Encountered "FROM" at line 1');
    });
    it('a source that needs a key fails without one, naming the variable to set', async () => {
      fake.on('/series/observations', json({ observations: [] }));
      const error = await failure(clientFor(fake).getJson('fred', { path: '/series/observations', key: { query: 'api_key' } }));
      expect([error.kind, error.message]).to.deep.equal(['not_configured', 'fred needs an API key: set SOURCE_FRED_KEY']);
      expect(fake.hits).to.have.length(0);
    });
    it('with its key set, the key goes where the source takes it and not into the address shown', async () => {
      fake.on('/series/observations', json({ observations: [] }));
      const answer = await clientFor(fake, { key: 'k-123' }).getJson('fred', {
        path: '/series/observations',
        searchParams: { series_id: 'GDP' },
        key: { query: 'api_key' },
      });
      expect(fake.hits[0]!.query.get('api_key')).to.equal('k-123');
      expect(answer.url).to.equal(`${fake.url}/series/observations?series_id=GDP`);
    });
  });

  describe('cache and single-flight', () => {
    it('identical concurrent requests reach the upstream once and share its answer', async () => {
      fake.on('/query', json({ n: 1 }, { delayMs: 100 }));
      const client = clientFor(fake);
      const answers = await Promise.all(Array.from({ length: 5 }, () => client.getJson('usgs-earthquakes', { path: '/query', searchParams: { a: 1 } })));
      expect(fake.hits).to.have.length(1);
      expect(new Set(answers.map((answer) => answer.retrievedAt)).size).to.equal(1);
      expect(answers.map((answer) => answer.body)).to.deep.equal(Array.from({ length: 5 }, () => ({ n: 1 })));
    });
    it('a repeat is served from the cache with the original retrievedAt, without reaching the upstream', async () => {
      fake.on('/query', json({ n: 2 }));
      const client = clientFor(fake);
      const first = await client.getJson('usgs-earthquakes', { path: '/query', searchParams: { b: 1 } });
      const second = await client.getJson('usgs-earthquakes', { path: '/query', searchParams: { b: 1 } });
      expect(fake.hits).to.have.length(1);
      expect([second.fromCache, second.retrievedAt, second.body]).to.deep.equal([true, first.retrievedAt, { n: 2 }]);
    });
    it('a different request is not served from the cache', async () => {
      fake.on('/query', json({ n: 3 }));
      const client = clientFor(fake);
      await client.getJson('usgs-earthquakes', { path: '/query', searchParams: { c: 1 } });
      await client.getJson('usgs-earthquakes', { path: '/query', searchParams: { c: 2 } });
      expect(fake.hits).to.have.length(2);
    });
    it('the cache stays within its byte bound after several large answers', async () => {
      const cache = new MemoryCache({ maxBytes: 20 * 1024 ** 2 });
      const client = new UpstreamClient({ sources: { USGS_EARTHQUAKES: { url: fake.url, timeoutMs: 5000 } }, cache });
      fake.on('/query', json({ big: 'x'.repeat(3 * 1024 ** 2) }));
      for (let index = 0; index < 6; index += 1) await client.getJson('usgs-earthquakes', { path: '/query', searchParams: { page: index } });
      expect(fake.hits).to.have.length(6);
      // Six answers of 3 MiB take 6 MiB each as strings: three fit in 20 MiB, the oldest went.
      expect([cache.size, cache.bytes <= 20 * 1024 ** 2]).to.deep.equal([3, true]);
    });
    it("a catalogue read whole (asked with a raised body cap) is not kept in the process's memory: the process keeps its index instead", async () => {
      const cache = new MemoryCache();
      const client = new UpstreamClient({ sources: { USGS_EARTHQUAKES: { url: fake.url, timeoutMs: 5000 } }, cache });
      fake.on('/catalogue', json({ entries: ['a', 'b'] }));
      for (let round = 0; round < 2; round += 1) await client.getJson('usgs-earthquakes', { path: '/catalogue', maxBodyBytes: 64 * 1024 ** 2 });
      expect([fake.hits.length, cache.size]).to.deep.equal([2, 0]);
    });
    it('a failed or unreadable answer is not cached', async () => {
      fake.on('/query', { body: 'not json', contentType: 'application/json' }, json({ n: 4 }));
      const client = clientFor(fake);
      await failure(client.getJson('usgs-earthquakes', { path: '/query' }));
      expect((await client.getJson('usgs-earthquakes', { path: '/query' })).body).to.deep.equal({ n: 4 });
      expect(fake.hits).to.have.length(2);
    });
  });

  describe("a call's view, while the call's credits are being held", () => {
    it('answers from the cache at once, but sends a request upstream only once the call is admitted', async () => {
      fake.on('/query', json({ n: 5 }));
      const client = clientFor(fake);
      await client.getJson('usgs-earthquakes', { path: '/query', searchParams: { cached: 1 } });
      const admission = watchedAdmission();
      const view = client.forCall(admission.promise);
      expect((await view.getJson('usgs-earthquakes', { path: '/query', searchParams: { cached: 1 } })).fromCache).to.equal(true);
      const fresh = view.getJson('usgs-earthquakes', { path: '/query', searchParams: { cached: 0 } });
      // The request has come to the point where it waits for the admission: nothing of it was sent before.
      await admission.awaited;
      expect(fake.hits).to.have.length(1);
      admission.admit();
      expect([(await fresh).body, fake.hits.length]).to.deep.equal([{ n: 5 }, 2]);
    });
    it("a refused call's request fails with the refusal and reaches nothing; another call's identical request, joined to it, asks for itself", async () => {
      fake.on('/query', json({ n: 6 }));
      const client = clientFor(fake);
      const refusal = new Error('not enough credits');
      let refuse!: (reason: Error) => void;
      const refused = client.forCall(new Promise<void>((_, reject) => (refuse = reject))).getJson('usgs-earthquakes', { path: '/query' });
      const admitted = client.forCall(Promise.resolve()).getJson('usgs-earthquakes', { path: '/query' });
      refuse(refusal);
      const [first, second] = await Promise.allSettled([refused, admitted]);
      expect(first).to.deep.equal({ status: 'rejected', reason: refusal });
      expect(second.status === 'fulfilled' && second.value.body).to.deep.equal({ n: 6 });
      expect(fake.hits).to.have.length(1);
    });
  });

  describe("a call's view, once the call is cancelled", () => {
    afterEach(() => fake.release());

    async function cancelled(promise: Promise<unknown>): Promise<string> {
      return promise.then(
        () => 'answered',
        (error: unknown) => (error instanceof ApiError ? error.code : String(error)),
      );
    }

    it('sends nothing when the call was cancelled before it asked', async () => {
      fake.on('/query', json({ n: 1 }));
      const view = clientFor(fake).forCall(undefined, AbortSignal.abort());
      expect(await cancelled(view.getJson('usgs-earthquakes', { path: '/query' }))).to.equal('cancelled');
      expect(fake.hits).to.have.length(0);
    });

    it('cuts off the request under way, and drops the ones waiting for their turn: none of them is ever sent', async () => {
      // Crossref takes one request at a time: the second and third wait in its queue.
      fake.on('/works', json({ status: 'ok', message: { items: [] } }));
      fake.hold();
      // A timeout far beyond the test's: only the cancellation can cut the request off.
      const client = clientFor(fake, { timeoutMs: 60_000 });
      const cancel = new AbortController();
      const view = client.forCall(undefined, cancel.signal);
      const asked = [1, 2, 3].map((page) => cancelled(view.getJson('crossref', { path: '/works', searchParams: { page } })));
      await eventually(
        async () => fake.hits.length,
        (count) => count === 1,
      );
      cancel.abort();
      expect(await Promise.all(asked)).to.deep.equal(['cancelled', 'cancelled', 'cancelled']);
      await eventually(
        async () => fake.hits[0]!.abandoned,
        (abandoned) => abandoned,
      );
      fake.release();
      // Another call's request through the same queue comes after anything the cancelled one had left in it.
      await client.getJson('crossref', { path: '/works', searchParams: { page: 4 } });
      expect(fake.hits.map((hit) => hit.query.get('page'))).to.deep.equal(['1', '4']);
      expect(fake.hits[0]!.abandoned).to.equal(true);
    });

    it("another call's identical request, joined to the cancelled one's, asks for itself", async () => {
      fake.on('/query', json({ n: 7 }));
      fake.hold();
      // A timeout far beyond the test's: only the cancellation can cut the request off.
      const client = clientFor(fake, { timeoutMs: 60_000 });
      const cancel = new AbortController();
      const first = cancelled(client.forCall(undefined, cancel.signal).getJson('usgs-earthquakes', { path: '/query' }));
      const second = client.getJson('usgs-earthquakes', { path: '/query' });
      await eventually(
        async () => fake.hits.length,
        (count) => count === 1,
      );
      cancel.abort();
      expect(await first).to.equal('cancelled');
      await eventually(
        async () => fake.hits[0]!.abandoned,
        (abandoned) => abandoned,
      );
      fake.release();
      expect((await second).body).to.deep.equal({ n: 7 });
      expect(fake.hits.map((hit) => hit.abandoned)).to.deep.equal([true, false]);
    });
  });

  describe('bounded reads', () => {
    let elsewhere: FakeUpstream;
    before(async () => {
      elsewhere = await startFakeUpstream();
    });
    after(async () => elsewhere.close());
    beforeEach(() => elsewhere.reset());

    it('a 302 to another host is not followed: no request reaches that host, its body is never quoted, no retry', async () => {
      elsewhere.on('/stolen', { body: 'SECRET PAGE OF ANOTHER HOST', contentType: 'text/plain' });
      fake.on('/query', { status: 302, body: 'moved', contentType: 'text/plain', headers: { location: `${elsewhere.url}/stolen` } });
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect([error.kind, error.status, error.message]).to.deep.equal([
        'redirect',
        302,
        `usgs-earthquakes answered HTTP 302: redirected to another host (${new URL(elsewhere.url).host}), which is never followed`,
      ]);
      expect([fake.hits.length, elsewhere.hits.length]).to.deep.equal([1, 0]);
    });
    it('a source allowed same-host redirects follows one to its own host but still never another host', async () => {
      fake.on('/works/W1', json({}, { status: 301, headers: { location: '/works/W2' } }));
      fake.on('/works/W2', json({ id: 'W2' }));
      const answer = await clientFor(fake).getJson('openalex', { path: '/works/W1' });
      expect(answer.body).to.deep.equal({ id: 'W2' });
      fake.on('/works/W3', json({}, { status: 301, headers: { location: `${elsewhere.url}/works/W2` } }));
      const error = await failure(clientFor(fake).getJson('openalex', { path: '/works/W3' }));
      expect(error.kind).to.equal('redirect');
      expect(elsewhere.hits).to.have.length(0);
    });
    it('a same-host redirect of a source that allows none is refused', async () => {
      fake.on('/query', json({}, { status: 301, headers: { location: '/query2' } }));
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.message).to.equal('usgs-earthquakes answered HTTP 301: redirected and redirects are not followed for this source');
      expect(fake.hits.map((hit) => hit.path)).to.deep.equal(['/query']);
    });
    it('a 1 GiB gzip bomb stops at the body cap, once, without retry', async () => {
      fake.on('/query', { fault: 'gzip_bomb', expandsTo: 1024 ** 3 });
      const error = await failure(clientFor(fake, { timeoutMs: 20_000 }).getJson('usgs-earthquakes', { path: '/query' }));
      expect([error.kind, error.message]).to.deep.equal([
        'too_large',
        'usgs-earthquakes answered with more than 8 MiB, the most read from it; ask for fewer results',
      ]);
      expect(fake.hits).to.have.length(1);
    });
    it('an endless body stops at the body cap, once, without retry', async () => {
      fake.on('/query', { fault: 'endless' });
      const error = await failure(clientFor(fake, { timeoutMs: 20_000 }).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.kind).to.equal('too_large');
      expect(fake.hits).to.have.length(1);
    });
    it('a 50 MiB JSON answer stops at the body cap, once, without retry', async () => {
      fake.on('/query', { fault: 'huge_json', bytes: 50 * 1024 ** 2 });
      const error = await failure(clientFor(fake, { timeoutMs: 20_000 }).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.kind).to.equal('too_large');
      expect(fake.hits).to.have.length(1);
    });
    it('a source with a larger cap in its manifest entry reads a body that the default cap refuses', async () => {
      fake.on('/studies', { fault: 'huge_json', bytes: 10 * 1024 ** 2 });
      const client = new UpstreamClient({ sources: { CLINICALTRIALS: { url: fake.url, timeoutMs: 20_000 } }, cache: new MemoryCache() });
      const answer = await client.getJson<unknown[]>('clinicaltrials', { path: '/studies' });
      expect(answer.body.at(-1)).to.equal('end');
    });
    it('a long text whose characters span several chunks is read whole, each character as sent', async () => {
      const body = 'Zürich – Genève; '.repeat(20_000);
      fake.on('/query', { body, contentType: 'text/plain; charset=utf-8' });
      const answer = await clientFor(fake, { timeoutMs: 20_000 }).getText('usgs-earthquakes', { path: '/query' });
      expect(answer.body).to.equal(body);
    });
    it('a body whose Content-Length announces more than the cap is refused before reading', async () => {
      fake.on('/query', { body: 'x'.repeat(9 * 1024 ** 2), contentType: 'application/json' });
      // A loaded machine may take longer than the usual 400 ms to start a 9 MiB answer; the refusal does not depend on it.
      const error = await failure(clientFor(fake, { timeoutMs: 20_000 }).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.kind).to.equal('too_large');
    });
  });

  describe('a large text read as it streams (readText)', () => {
    const CAP = 16 * 1024 ** 2;
    /** Reads `path` as a streamed text; → the pieces handed over, and what the read said. */
    async function streamed(client: UpstreamClient, path: string, maxBodyBytes = CAP) {
      const pieces: string[] = [];
      const read = await client.readText('usgs-earthquakes', { path, maxBodyBytes }, (piece) => {
        pieces.push(piece);
      });
      return { pieces, read };
    }
    // 3 bytes a character: many are cut between two chunks of the connection.
    const body = 'série ✓ '.repeat(40_000);

    it('hands the body over in pieces as it arrives, which join to the body, a character cut between chunks kept whole', async () => {
      fake.on('/list', { body, contentType: 'text/plain' });
      const { pieces, read } = await streamed(clientFor(fake), '/list');
      expect(pieces.length).to.be.greaterThan(2);
      expect([pieces.join('') === body, read.fromCache, read.url]).to.deep.equal([true, false, `${fake.url}/list`]);
    });
    it('is not kept in the memory cache: without Redis a second read asks the upstream again', async () => {
      fake.on('/list', { body: 'a\nb\n', contentType: 'text/plain' });
      const client = clientFor(fake);
      const reads = [await streamed(client, '/list'), await streamed(client, '/list')];
      expect([reads.map(({ pieces }) => pieces.join('')), fake.hits.length]).to.deep.equal([['a\nb\n', 'a\nb\n'], 2]);
    });
    it('retries a 503 before anything is handed over, and hands the answer over once', async () => {
      fake.on('/list', { status: 503, body: 'busy', contentType: 'text/plain' }, { body: 'one\ntwo\n', contentType: 'text/plain' });
      const { pieces } = await streamed(clientFor(fake), '/list');
      expect([pieces.join(''), fake.hits.length]).to.deep.equal(['one\ntwo\n', 2]);
    });
    it('is not asked again once a piece was handed over: a body broken off then fails the read as a network error', async () => {
      fake.on('/list', { fault: 'truncated', body: 'x'.repeat(200_000), contentType: 'text/plain' });
      const pieces: string[] = [];
      const error = await failure(
        clientFor(fake, { timeoutMs: 5000 }).readText('usgs-earthquakes', { path: '/list', maxBodyBytes: CAP }, (piece) => void pieces.push(piece)),
      );
      expect([error.kind, pieces.length > 0, fake.hits.length]).to.deep.equal(['network', true, 1]);
    });
    it('refuses an HTML page before handing anything over', async () => {
      fake.on('/list', { body: '<!DOCTYPE html><html><title>Maintenance</title></html>', contentType: 'text/html' });
      const pieces: string[] = [];
      const error = await failure(clientFor(fake).readText('usgs-earthquakes', { path: '/list', maxBodyBytes: CAP }, (piece) => void pieces.push(piece)));
      expect([error.kind, error.message, pieces]).to.deep.equal(['bad_body', 'usgs-earthquakes answered with an HTML page instead of data', []]);
    });
    it('stops at its body cap, once, without retry', async () => {
      fake.on('/list', { fault: 'endless' });
      let bytes = 0;
      const error = await failure(
        clientFor(fake, { timeoutMs: 20_000 }).readText(
          'usgs-earthquakes',
          { path: '/list', maxBodyBytes: 9 * 1024 ** 2 },
          (piece) => void (bytes += piece.length),
        ),
      );
      expect([error.kind, bytes <= 9 * 1024 ** 2, fake.hits.length]).to.deep.equal(['too_large', true, 1]);
    });
    it('throws what the taker throws, as it is, and reads no further', async () => {
      fake.on('/list', { body, contentType: 'text/plain' });
      const stop = new Error('not a series list');
      let calls = 0;
      const read = clientFor(fake).readText('usgs-earthquakes', { path: '/list', maxBodyBytes: CAP }, () => {
        calls += 1;
        throw stop;
      });
      let thrown: unknown;
      await read.catch((error: unknown) => (thrown = error));
      expect([thrown, calls, fake.hits.length]).to.deep.equal([stop, 1, 1]);
    });
  });

  describe('pacing', () => {
    it("a read of another host of the source (BLS's LABSTAT files) has a lane of its own: the API answers while a list is still being read", async () => {
      const labstat = await startFakeUpstream(() => clock.now());
      try {
        labstat.on('/ce/ce.series', { body: 'series_id\tseries_title\n'.repeat(50_000), contentType: 'text/plain' });
        fake.on('/timeseries/data/', json({ status: 'REQUEST_SUCCEEDED', Results: { series: [] } }));
        const limiter = new HostGroupLimiter(undefined, clock); // BLS's own limit: one request at a time
        const client = new UpstreamClient({ sources: { BLS: { url: fake.url } }, cache: new MemoryCache(), limiter, clock });
        let firstPiece!: () => void;
        const listStarted = new Promise<void>((resolve) => (firstPiece = resolve));
        let finishList!: () => void;
        const listMayGoOn = new Promise<void>((resolve) => (finishList = resolve));
        const list = client.readText('bls', { baseUrl: labstat.url, path: '/ce/ce.series', maxBodyBytes: 16 * 1024 ** 2, kind: 'catalogue' }, async () => {
          firstPiece();
          await listMayGoOn;
        });
        await listStarted;
        const api = await client.getJson('bls', { path: '/timeseries/data/' });
        const listStillRead = limiter.pending('bls', new URL(labstat.url).host);
        finishList();
        await list;
        expect([api.body, listStillRead, fake.hits.length, labstat.hits.length]).to.deep.equal([
          { status: 'REQUEST_SUCCEEDED', Results: { series: [] } },
          1,
          1,
          1,
        ]);
      } finally {
        await labstat.close();
      }
    });
  });

  describe('upstream error reasons', () => {
    describeRecordings('crossref', () => {
      it("Crossref's validation failure gives its message", async () => {
        fake.on('/works', { status: 400, body: recording('crossref', 'error-400-validation-failure.json'), contentType: 'application/json' });
        const error = await failure(clientFor(fake).getJson('crossref', { path: '/works' }));
        expect(error.message).to.equal('crossref answered HTTP 400: Integer specified as 200 but must be a positive integer less than or equal to 100.');
      });
    });
    describeRecordings('openalex', () => {
      it("OpenAlex's invalid filter gives its error and the start of its message, at most 200 characters", async () => {
        fake.on('/works', { status: 400, body: recording('openalex', 'error-400-invalid-filter.json'), contentType: 'application/json' });
        const error = await failure(clientFor(fake).getJson('openalex', { path: '/works' }));
        const reason = error.message.replace('openalex answered HTTP 400: ', '');
        expect(reason).to.match(
          /^Invalid query parameters error: DOESNTEXIST is not a valid field\. Valid fields are underscore or hyphenated versions of: abstract\.search, /,
        );
        expect([reason.length, reason.endsWith('…')]).to.deep.equal([200, true]);
      });
    });
    it('control characters and line breaks of a reason are removed', async () => {
      fake.on('/query', json({ error: 'bad\u0000 value\r\n\u001b[31mred\u2028x' }, { status: 400 }));
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.message).to.equal('usgs-earthquakes answered HTTP 400: bad value [31mred x');
    });
    it('only the start of a long error body is read and none of it is quoted beyond the reason', async () => {
      fake.on('/query', { status: 500, body: `${'A'.repeat(300)}\n${'B'.repeat(200_000)}`, contentType: 'text/plain' });
      const error = await failure(clientFor(fake).getJson('usgs-earthquakes', { path: '/query' }));
      expect(error.message).to.equal(`usgs-earthquakes answered HTTP 500: ${'A'.repeat(199)}…`);
    });
  });
});
