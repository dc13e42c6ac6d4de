import { expect } from 'chai';
import type { ToolHandlers } from '../../generated/routes.ts';
import type { SourceId } from '../../generated/types.ts';
import { getBalance } from '../../src/ledger/index.ts';
import type { ToolContext } from '../../src/tools/context.ts';
import { createHandlers } from '../../src/tools/handlers.ts';
import { assemble, fanOut, makeRecord } from '../../src/tools/result.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { nullPaths } from './support.ts';

const SOURCES: SourceId[] = ['usgs-earthquakes', 'simbad'];

/** A two-source tool for this test: search_papers' route, asking both sources through the real upstream layer. */
const twoSources: ToolHandlers<ToolContext>['search_papers'] = async (args, context) => {
  const fan = await fanOut(
    SOURCES.map((source) => ({
      source,
      run: () => context.upstream.getJson<{ title: string }>(source, { path: `/${source}`, searchParams: { q: args.query } }),
    })),
  );
  const records = fan.answered.map(({ source, value }) =>
    makeRecord(context.upstream, source, {
      nativeId: 'x1',
      type: 'paper',
      title: value.body.title,
      retrievedAt: value.retrievedAt,
      data: { found_in: [source] },
    }),
  );
  return assemble(fan, records as never, `${records.length} of ${SOURCES.length} sources answered.`);
};

describeOnEachEngine('a tool whose sources partly fail, over HTTP', (engine) => {
  let fake: FakeUpstream;
  let server: TestServer;
  before(async () => {
    fake = await startFakeUpstream();
    server = await startServer(engine.db, {
      env: { SOURCE_USGS_EARTHQUAKES_URL: fake.url, SOURCE_SIMBAD_URL: fake.url },
      handlers: { ...createHandlers(), search_papers: twoSources },
    });
  });
  after(async () => {
    await server.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  it('one source failing and one answering is a charged 200 with partial and failedSources (rule 7.2)', async () => {
    fake.on('/usgs-earthquakes', json({ title: 'answered' }));
    fake.on('/simbad', { status: 400, contentType: 'text/plain', body: 'bad request: unknown column' });
    const caller = await newCaller(engine.db, 5);
    const answer = await call(server.baseUrl, '/api/v1/search_papers', { method: 'POST', key: caller.key, body: { query: 'partial' } });
    expect(answer.status).to.equal(200);
    expect(Object.keys(answer.body)).to.deep.equal(['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id']);
    expect([answer.body.summary, answer.body.partial, answer.body.failedSources, answer.body.credits_used]).to.deep.equal([
      '1 of 2 sources answered.',
      true,
      [{ source: 'simbad', error: 'simbad answered HTTP 400: bad request: unknown column' }],
      1,
    ]);
    expect(answer.body.records.map((record: { id: string; title: string }) => [record.id, record.title])).to.deep.equal([['usgs-earthquakes:x1', 'answered']]);
    expect(nullPaths(answer.body)).to.deep.equal([]);
    expect(await getBalance(engine.db, caller.accountId)).to.equal(4);
  });

  it('both failing is a 502 naming both reasons, not charged', async () => {
    fake.on('/usgs-earthquakes', { status: 404, contentType: 'text/plain', body: 'Error 404: Not Found\n\nNo such method.\n' });
    fake.on('/simbad', { body: '<html><title>Down</title></html>', contentType: 'text/html' });
    const caller = await newCaller(engine.db, 5);
    const answer = await call(server.baseUrl, '/api/v1/search_papers', { method: 'POST', key: caller.key, body: { query: 'none' } });
    expect([answer.status, answer.body]).to.deep.equal([
      502,
      {
        error: {
          code: 'upstream_error',
          message: 'no source answered: usgs-earthquakes answered HTTP 404: No such method.; simbad answered with an HTML page instead of JSON',
        },
      },
    ]);
    expect(await getBalance(engine.db, caller.accountId)).to.equal(5);
  });
});
