import { expect } from 'chai';
import { loadConfig } from '../../src/config.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import type { Clock } from '../../src/clock.ts';
import { HostGroupLimiter } from '../../src/upstream/limits.ts';
import { recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream } from '../support/fake-upstream.ts';
import { call, newCaller, startServer } from '../support/server.ts';
import { down, expectCharged, expectNotCharged, sourcesHarness, own } from '../life/support.ts';

const CHARGED_PARTIAL = ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id'];
const KEY = 'europeana-test-key-7Hq2ZpW9';
const NEWSPAPERS = '/collections/chronicling-america/';
/** The key a real Europeana answer of 2015 was recorded with (test/recordings/europeana/README.md). */
const RECORDED_KEY = 'yF4xXWLcP';
/** That real answer, with the configured key where Europeana echoes the caller's (apikey, guid, link). */
const europeanaAnswer = () => json(recording('europeana', 'search-mona-lisa-2015-api-v2.json').replaceAll(RECORDED_KEY, KEY));

describeOnEachEngine('search_archives over HTTP', (engine) => {
  const archives = sourcesHarness(engine, ['loc', 'europeana'] as const, { SOURCE_EUROPEANA_KEY: KEY });

  it('asks both archives with the type and years pushed down, and interleaves their items', async () => {
    archives.on('loc', NEWSPAPERS, own('loc', 'hand-made-newspaper-search.json'));
    // The one real Europeana answer, served whatever is asked, is of a 2015 search for "Mona Lisa": its item is a painting's image.
    // The test checks what is asked of each archive and how the answers are read and interleaved, not that Europeana filtered.
    archives.on('europeana', '/search.json', europeanaAnswer());
    const result = await archives.charged('search_archives', { query: 'suffrage parade', type: 'newspaper', date_from: 1913, date_to: 1913, limit: 3 });
    expectCharged(result);
    const body = result.answer.body;
    expect(body.records.map((record: { id: string }) => record.id)).to.deep.equal([
      'loc:resource/sn83045462/1913-03-03/ed-1?sp=1',
      'europeana:03919/FCD38BDE7A03579F24BEDA5D157943B75BB36F11',
      'loc:item/2014690000',
    ]);
    expect({ ...body.records[0], retrievedAt: undefined }).to.deep.equal({
      id: 'loc:resource/sn83045462/1913-03-03/ed-1?sp=1',
      type: 'archive_item',
      source: 'loc',
      title: 'Evening star. [volume] (Washington, D.C.) 1854-1972, March 03, 1913, Page 1, Image 1',
      url: 'https://www.loc.gov/resource/sn83045462/1913-03-03/ed-1/?sp=1&q=suffrage+parade',
      license: 'per item (rights statement)',
      attribution: 'Library of Congress (loc.gov); rights as stated for each item',
      retrievedAt: undefined,
      data: {
        item_type: 'newspaper',
        date: '1913-03-03',
        year: 1913,
        place: 'washington',
        creators: ['w.d. wallach & hope'],
        snippet:
          'Hand-made test text in the documented shape: EVENING STAR. WASHINGTON. SUFFRAGE PARADE MARCHES UP PENNSYLVANIA AVENUE while thousands look on; the procession of women from every state passed the Treasury in the afternoon.',
        rights: 'No known restrictions on publication.',
        thumbnail_url: 'https://tile.loc.gov/image-services/iiif/service:ndnp:dlc:batch_dlc_test:data:sn83045462:1913030301:0001/full/pct:6.25/0/default.jpg',
        item_url: 'https://www.loc.gov/resource/sn83045462/1913-03-03/ed-1/?sp=1&q=suffrage+parade',
        provider: 'Library of Congress',
        collection: 'evening star (washington, d.c.) 1854-1972',
        language: ['english'],
      },
    });
    expect(body.records[1].data).to.deep.equal({
      item_type: 'image',
      rights: 'http://www.europeana.eu/rights/rr-f/',
      thumbnail_url:
        'http://europeanastatic.eu/api/image?uri=http%3A%2F%2Fwww.culture.gouv.fr%2FWave%2Fimage%2Fjoconde%2F0372%2Fm503604_00-010164_v.jpg&size=LARGE&type=IMAGE',
      item_url: 'https://www.europeana.eu/item/03919/FCD38BDE7A03579F24BEDA5D157943B75BB36F11',
      provider: 'Ministère de la culture et de la communication, Musées de France',
      collection: '03919_Ag_FR_MCC_JOCONDE_IMAGE',
      language: ['fr'],
    });
    expect(body.summary).to.equal('3 newspaper items for "suffrage parade" from 1913 to 1913 (matches: loc 5137, europeana 354).');
    const locQuery = archives.hits('loc', NEWSPAPERS)[0]!.query;
    expect([locQuery.get('q'), locQuery.get('fo'), locQuery.get('at'), locQuery.get('dates'), locQuery.get('c')]).to.deep.equal([
      'suffrage parade',
      'json',
      'results,pagination',
      '1913/1913',
      '3',
    ]);
    const europeanaQuery = archives.hits('europeana', '/search.json')[0]!.query;
    expect([europeanaQuery.getAll('qf'), europeanaQuery.get('wskey')]).to.deep.equal([['TYPE:TEXT', 'YEAR:[1913 TO 1913]'], KEY]);
    expect(result.answer.text).not.to.contain(KEY);
  });

  it("one archive failing gives the other's items: partial, failedSources names it", async () => {
    archives.on('loc', '/photos/', down);
    archives.on('europeana', '/search.json', europeanaAnswer());
    const result = await archives.charged('search_archives', { query: 'suffrage', type: 'image' });
    expectCharged(result, CHARGED_PARTIAL);
    expect(result.answer.body.failedSources).to.deep.equal([{ source: 'loc', error: 'loc answered HTTP 503: service unavailable' }]);
    expect(result.answer.body.records).to.have.length(10);
  });

  it('is a 502, not charged, when both archives fail; sources limits the archives asked', async () => {
    archives.on('loc', '/search/', down);
    archives.on('europeana', '/search.json', down);
    expectNotCharged(await archives.charged('search_archives', { query: 'suffrage' }));
    const europeanaAsked = archives.hits('europeana', '/search.json').length;
    archives.on('loc', '/search/', own('loc', 'hand-made-newspaper-search.json'));
    expectCharged(await archives.charged('search_archives', { query: 'suffrage', sources: ['loc'] }));
    expect(archives.hits('europeana', '/search.json')).to.have.length(europeanaAsked);
  });

  it('rejects an unknown type and reversed years with 400 naming the field', async () => {
    const type = await archives.charged('search_archives', { query: 'suffrage', type: 'film' });
    expectNotCharged(type, 400, 'invalid_input');
    expect(type.answer.body.error.message).to.match(/^type: /);
    const years = await archives.charged('search_archives', { query: 'suffrage', date_from: 1950, date_to: 1900 });
    expectNotCharged(years, 400, 'invalid_input');
    expect(years.answer.body.error.message).to.match(/date_from|date_to/);
  });

  it('the Europeana key never appears in an answer, an error message or a log line, whatever Europeana sends back', async () => {
    const echoes = [
      europeanaAnswer(),
      json({ apikey: KEY, success: false, error: `Invalid API key ${KEY}`, code: '401-AX' }, { status: 401 }),
      json({ apikey: KEY, success: false, error: `Quota exceeded for wskey=${KEY}` }, { status: 500, headers: { 'retry-after': '0' } }),
      {
        body: `{"apikey":"${KEY}","success":true,"items":[{"id":"/1/2","link":"https://api.europeana.eu/record/1/2.json?wskey=${KEY}"`,
        contentType: 'application/json',
      },
      { body: `<html><title>Bad key ${KEY}</title></html>`, contentType: 'text/html', status: 403 },
    ];
    const texts: string[] = [];
    for (const [index, reply] of echoes.entries()) {
      archives.on('europeana', '/search.json', reply);
      const result = await archives.charged('search_archives', { query: `suffrage ${index}`, sources: ['europeana'] });
      texts.push(result.answer.text);
    }
    expect(texts.map((text) => JSON.parse(text).error?.code ?? 'ok')).to.deep.equal([
      'ok',
      'upstream_error',
      'upstream_error',
      'upstream_error',
      'upstream_error',
    ]);
    expect(texts[1]).to.contain('europeana answered HTTP 401: Invalid API key [key]');
    expect(texts.filter((text) => text.includes(KEY))).to.deep.equal([]);
    const logLines = archives.server().logLines;
    expect(logLines.some((line) => line.includes('[key]'))).to.equal(true);
    expect(logLines.filter((line) => line.includes(KEY))).to.deep.equal([]);
  });
});

describeOnEachEngine('search_archives pacing of loc.gov', (engine) => {
  it('30 concurrent calls never send loc.gov more than 20 requests in any minute (fake clock: no real waiting)', async () => {
    // A fake clock: the limiter's waits move it forward at once, and the fake loc.gov stamps each request with it.
    const clock: Clock & { time: number } = {
      time: 0,
      now: () => clock.time,
      sleep: async (ms) => {
        clock.time += ms;
        await new Promise((resolve) => setImmediate(resolve));
      },
    };
    const fake = await startFakeUpstream(() => clock.time);
    fake.on('/loc/search/', own('loc', 'hand-made-newspaper-search.json'));
    const env = { SOURCE_LOC_URL: `${fake.url}/loc` };
    const upstream = new UpstreamClient({ sources: loadConfig(env).sources, limiter: new HostGroupLimiter(undefined, clock) });
    const server = await startServer(engine.db, { env, upstream, rateLimitPerMinute: 100 });
    try {
      const caller = await newCaller(engine.db, 30);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          call(server.baseUrl, '/api/v1/search_archives', { method: 'POST', key: caller.key, body: { query: `suffrage parade ${index}`, sources: ['loc'] } }),
        ),
      );
      expect(answers.map((answer) => answer.status)).to.deep.equal(Array(30).fill(200));
      const stamps = fake
        .hitsOn('/loc/search/')
        .map((hit) => hit.at)
        .sort((a, b) => a - b);
      expect(stamps).to.have.length(30);
      const busiestMinute = Math.max(...stamps.map((start) => stamps.filter((stamp) => stamp >= start && stamp < start + 60_000).length));
      expect(busiestMinute).to.equal(20);
    } finally {
      await server.close();
      await fake.close();
    }
  });

  it('a repeated search is answered from the cache without asking loc.gov again', async () => {
    const fake = await startFakeUpstream();
    fake.on('/loc/search/', own('loc', 'hand-made-newspaper-search.json'));
    const server = await startServer(engine.db, { env: { SOURCE_LOC_URL: `${fake.url}/loc` } });
    try {
      const caller = await newCaller(engine.db, 3);
      for (let index = 0; index < 3; index += 1) {
        const answer = await call(server.baseUrl, '/api/v1/search_archives', {
          method: 'POST',
          key: caller.key,
          body: { query: 'suffrage parade', sources: ['loc'] },
        });
        expect(answer.status).to.equal(200);
      }
      expect(fake.hitsOn('/loc/search/')).to.have.length(1);
    } finally {
      await server.close();
      await fake.close();
    }
  });
});
