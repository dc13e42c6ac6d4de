import { expect } from 'chai';
import { deleteKey, getBalance, ledgerSum, setPackEnabled, usage } from '../../src/ledger/index.ts';
import { MAX_BODY_BYTES } from '../../src/server/tool-call.ts';
import { eventually } from '../support/eventually.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { call, documentationAddress, newCaller, startServer, type TestServer } from '../support/server.ts';
import { stubHandlers } from '../support/stub-handlers.ts';
import { capabilities, tools } from '../../generated/tools.ts';

describeOnEachEngine('REST API end to end over HTTP', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(engine.db, { handlers: stubHandlers() });
  });
  after(async () => server.close());

  const post = (tool: string, options: Parameters<typeof call>[2] = {}) => call(server.baseUrl, `/api/v1/${tool}`, { method: 'POST', ...options });

  /** The account still holds `credits`, as the ledger says, and no call of it holds, captures or releases anything. */
  async function expectNothingCharged(accountId: string, credits: number): Promise<void> {
    expect(await getBalance(engine.db, accountId), 'balance').to.equal(credits);
    expect(await ledgerSum(engine.db, accountId), 'sum of ledger entries').to.equal(credits);
    expect(await engine.db('ledger_entries').where({ account_id: accountId }).whereNotNull('call_id').pluck('kind'), 'entries of calls').to.deep.equal([]);
  }

  describe('the unauthenticated GET addresses', () => {
    it('GET /api/v1 lists every tool of tools.yaml with pack, credits and path', async () => {
      const answer = await call(server.baseUrl, '/api/v1');
      expect(answer.status).to.equal(200);
      expect(answer.body.tools).to.have.length(Object.keys(tools).length);
      expect(answer.body.tools.find((tool: { name: string }) => tool.name === 'verify_references')).to.deep.include({
        name: 'verify_references',
        pack: 'general',
        credits: 2,
        path: '/api/v1/verify_references',
      });
    });
    it('GET /api/v1/<tool> describes the tool with exactly the fields of part 2.1', async () => {
      const answer = await call(server.baseUrl, '/api/v1/lookup_integer_sequence');
      expect(answer.status).to.equal(200);
      expect(Object.keys(answer.body)).to.deep.equal(['name', 'title', 'description', 'pack', 'input_schema']);
      expect(answer.body.pack).to.equal('humanities');
      expect(answer.body.input_schema.required).to.deep.equal(['query']);
      expect(answer.body.input_schema.properties.limit.default).to.equal(5);
    });
    it('GET /api/v1/openapi.json is OpenAPI 3.1 with the public base URL as server', async () => {
      const answer = await call(server.baseUrl, '/api/v1/openapi.json');
      expect([answer.status, answer.body.openapi, answer.body.servers]).to.deep.equal([200, '3.1.0', [{ url: 'https://api.example.test' }]]);
    });
    it('GET of an unknown tool is 404 unknown_tool', async () => {
      const answer = await call(server.baseUrl, '/api/v1/make_coffee');
      expect([answer.status, answer.body]).to.deep.equal([
        404,
        { error: { code: 'unknown_tool', message: 'no tool is named "make_coffee"; GET /api/v1 lists them' } },
      ]);
    });
    it('healthz and readyz answer', async () => {
      expect((await call(server.baseUrl, '/healthz')).body).to.deep.equal({ status: 'ok' });
      expect((await call(server.baseUrl, '/readyz')).body).to.deep.equal({ status: 'ready', database: 'reachable' });
    });
  });

  describe('a successful call', () => {
    it("is charged the tool's credits once and carries credits_used and call_id", async () => {
      const caller = await newCaller(engine.db, 10);
      const answer = await post('search_papers', { key: caller.key, body: { query: 'open access' } });
      expect(answer.status).to.equal(200);
      expect(Object.keys(answer.body)).to.deep.equal(['summary', 'records', 'credits_used', 'call_id']);
      expect(answer.body.summary).to.equal('1 paper for "open access".');
      expect(answer.body.credits_used).to.equal(1);
      expect(answer.body.call_id).to.match(/^call_[0-9a-f]{32}$/);
      expect(await getBalance(engine.db, caller.accountId)).to.equal(9);
      expect(await ledgerSum(engine.db, caller.accountId)).to.equal(9);
    });
    it('accepts the key in x-api-key as well as Authorization: Bearer', async () => {
      const caller = await newCaller(engine.db, 10);
      expect((await post('search_papers', { key: caller.key, keyHeader: 'x-api-key', body: { query: 'a' } })).status).to.equal(200);
      expect((await post('search_papers', { key: caller.key, keyHeader: 'bearer', body: { query: 'a' } })).status).to.equal(200);
    });
    it('list_capabilities (0 credits) works at balance 0 and filters by discipline', async () => {
      const caller = await newCaller(engine.db, 0);
      const answer = await post('list_capabilities', { key: caller.key, body: { discipline: 'humanities' } });
      expect(answer.status).to.equal(200);
      expect(answer.body.summary).to.equal('2 capabilities with 2 tools in the humanities pack.');
      expect(answer.body.records.map((record: { data: unknown }) => record.data)).to.deep.equal([
        { id: 'archives', title: 'Digitised archives', pack: 'humanities', tools: ['search_archives'], sources: ['europeana', 'loc'] },
        { id: 'integer_sequences', title: 'Integer sequences', pack: 'humanities', tools: ['lookup_integer_sequence'], sources: ['oeis'] },
      ]);
      expect(answer.body.credits_used).to.equal(0);
    });
    it('a free call says the balance in X-Credits-Remaining and is written to the call log just after its answer', async () => {
      const caller = await newCaller(engine.db, 7);
      const answer = await post('list_capabilities', { key: caller.key, body: {} });
      expect([answer.status, answer.headers.get('x-credits-remaining'), answer.body.credits_used]).to.deep.equal([200, '7', 0]);
      const logged = await eventually(
        () => usage(engine.db, caller.accountId),
        (entries) => entries.length > 0,
      );
      expect(logged.map((entry) => [entry.call_id, entry.tool, entry.status, entry.credits])).to.deep.equal([
        [answer.body.call_id, 'list_capabilities', 'ok', 0],
      ]);
      expect(await ledgerSum(engine.db, caller.accountId)).to.equal(7);
    });
    it("a tool's answer gives its exact length and no ETag (an answer to a POST is never revalidated)", async () => {
      const caller = await newCaller(engine.db, 2);
      const answer = await post('search_papers', { key: caller.key, body: { query: 'ümlaut café' } });
      expect([answer.status, answer.headers.get('content-length'), answer.headers.get('etag')]).to.deep.equal([
        200,
        String(Buffer.byteLength(answer.text)),
        null,
      ]);
    });
    it('list_capabilities answers with no body at all', async () => {
      const caller = await newCaller(engine.db, 0);
      const answer = await post('list_capabilities', { key: caller.key });
      expect(answer.status).to.equal(200);
      expect(answer.body.records).to.have.length(capabilities.length);
    });
  });

  describe('errors of part 7, each with its exact shape and nothing charged', () => {
    it('404 unknown_tool comes before the key check', async () => {
      const answer = await post('make_coffee', { body: {} });
      expect([answer.status, answer.body]).to.deep.equal([
        404,
        { error: { code: 'unknown_tool', message: 'no tool is named "make_coffee"; GET /api/v1 lists them' } },
      ]);
    });
    it('401 unauthorized when the key is missing', async () => {
      const answer = await post('search_papers', { body: { query: 'a' } });
      expect([answer.status, answer.body]).to.deep.equal([
        401,
        { error: { code: 'unauthorized', message: 'API key missing: send `Authorization: Bearer <key>` or `x-api-key: <key>`' } },
      ]);
    });
    it('401 unauthorized when the key is not valid, or was deleted', async () => {
      const caller = await newCaller(engine.db, 5);
      expect((await post('search_papers', { key: `${caller.key}x`, body: { query: 'a' } })).body).to.deep.equal({
        error: { code: 'unauthorized', message: 'API key not valid' },
      });
      expect((await post('search_papers', { key: caller.key, body: { query: 'a' } })).status).to.equal(200);
      // Deleted elsewhere (the admin CLI, another process): refused once this process's key cache lets go of it.
      await deleteKey(engine.db, caller.keyId);
      await eventually(
        () => call(server.baseUrl, '/api/v1/account', { key: caller.key }),
        (reply) => reply.status !== 200,
      );
      const answer = await post('search_papers', { key: caller.key, body: { query: 'a' } });
      expect([answer.status, answer.body.error.code]).to.deep.equal([401, 'unauthorized']);
      expect(await getBalance(engine.db, caller.accountId)).to.equal(4);
    });
    it("403 pack_disabled when the tool's pack is off, and the call works again once it is on", async () => {
      const caller = await newCaller(engine.db, 5);
      await setPackEnabled(engine.db, caller.accountId, 'general', false);
      const answer = await post('search_papers', { key: caller.key, body: { query: 'a' } });
      expect([answer.status, answer.body]).to.deep.equal([
        403,
        { error: { code: 'pack_disabled', message: 'the general pack is switched off for this account; switch it on in the capability-packs settings' } },
      ]);
      await expectNothingCharged(caller.accountId, 5);
      await setPackEnabled(engine.db, caller.accountId, 'general', true);
      const again = await eventually(
        () => post('search_papers', { key: caller.key, body: { query: 'a' } }),
        (reply) => reply.status !== 403,
      );
      expect(again.status).to.equal(200);
      expect(await getBalance(engine.db, caller.accountId)).to.equal(4);
    });
    it('403 comes before 400: a switched-off pack with a bad body is a 403', async () => {
      const caller = await newCaller(engine.db, 5);
      await setPackEnabled(engine.db, caller.accountId, 'astro', false);
      expect((await post('query_gaia', { key: caller.key, body: { ra: 'x' } })).status).to.equal(403);
      await expectNothingCharged(caller.accountId, 5);
    });
    it('400 invalid_input names every offending field and why', async () => {
      const caller = await newCaller(engine.db, 5);
      const answer = await post('search_papers', { key: caller.key, body: { limit: 'ten', colour: 'blue' } });
      expect(answer.status).to.equal(400);
      expect(answer.body.error.code).to.equal('invalid_input');
      expect(answer.body.error.message.split('; ').sort()).to.deep.equal([
        'colour: unknown argument',
        'limit: must be integer',
        "query: must have required property 'query'",
      ]);
      await expectNothingCharged(caller.accountId, 5);
    });
    it('400 for a bound of part 8 (query_gaia radius over 1 degree)', async () => {
      const caller = await newCaller(engine.db, 5);
      const answer = await post('query_gaia', { key: caller.key, body: { ra: 10, dec: 20, radius_deg: 1.5 } });
      expect([answer.status, answer.body]).to.deep.equal([400, { error: { code: 'invalid_input', message: 'radius_deg: must be <= 1' } }]);
      await expectNothingCharged(caller.accountId, 5);
    });
    it('400 for a cross-field rule (latitude without longitude)', async () => {
      const caller = await newCaller(engine.db, 5);
      const answer = await post('search_earthquakes', { key: caller.key, body: { latitude: 35 } });
      expect(answer.body).to.deep.equal({
        error: { code: 'invalid_input', message: 'longitude: required when latitude is given (use latitude, longitude together)' },
      });
      await expectNothingCharged(caller.accountId, 5);
    });
    it('400 for malformed JSON, a wrong content type, and a body that is not an object', async () => {
      const caller = await newCaller(engine.db, 5);
      expect((await post('search_papers', { key: caller.key, rawBody: '{"query":' })).body).to.deep.equal({
        error: { code: 'invalid_input', message: 'body: not valid JSON' },
      });
      expect((await post('search_papers', { key: caller.key, rawBody: 'query=a', contentType: 'text/plain' })).body).to.deep.equal({
        error: { code: 'invalid_input', message: 'body: Content-Type must be application/json, got "text/plain"' },
      });
      expect((await post('search_papers', { key: caller.key, rawBody: '["a"]' })).body).to.deep.equal({
        error: { code: 'invalid_input', message: 'body: must be a JSON object of arguments, got an array' },
      });
      expect((await post('search_papers', { key: caller.key, rawBody: '"a"' })).body).to.deep.equal({
        error: { code: 'invalid_input', message: 'body: must be a JSON object of arguments, got string' },
      });
      await expectNothingCharged(caller.accountId, 5);
    });
    it('413 payload_too_large for a body over the limit', async () => {
      const caller = await newCaller(engine.db, 5);
      const answer = await post('search_papers', { key: caller.key, body: { query: 'a'.repeat(MAX_BODY_BYTES) } });
      expect([answer.status, answer.body]).to.deep.equal([
        413,
        { error: { code: 'payload_too_large', message: `body: larger than the limit of ${MAX_BODY_BYTES} bytes` } },
      ]);
      await expectNothingCharged(caller.accountId, 5);
    });
    it("402 insufficient_credits when the balance is below the tool's credits, and nothing is taken", async () => {
      const caller = await newCaller(engine.db, 1);
      const answer = await post('verify_references', { key: caller.key, body: { references: 'Smith J. A paper. 2020.' } });
      expect([answer.status, answer.body]).to.deep.equal([
        402,
        { error: { code: 'insufficient_credits', message: 'verify_references costs 2 credits; the account holds 1' } },
      ]);
      await expectNothingCharged(caller.accountId, 1);
    });
    it('400 comes before 402: a bad body at balance 0 is a 400', async () => {
      const caller = await newCaller(engine.db, 0);
      expect((await post('search_papers', { key: caller.key, body: {} })).status).to.equal(400);
      await expectNothingCharged(caller.accountId, 0);
    });
    it('502 upstream_error when the tool cannot complete; the balance is unchanged', async () => {
      const caller = await newCaller(engine.db, 3);
      const answer = await post('lookup_integer_sequence', { key: caller.key, body: { query: '1, 1, 2, 3, 5, 8' } });
      expect([answer.status, answer.body]).to.deep.equal([
        502,
        { error: { code: 'upstream_error', message: 'no source answered: oeis did not answer within 15000 ms' } },
      ]);
      expect(await getBalance(engine.db, caller.accountId)).to.equal(3);
      expect(await ledgerSum(engine.db, caller.accountId)).to.equal(3);
    });
    it('500 internal for an unexpected failure, without a stack trace; the balance is unchanged', async () => {
      const caller = await newCaller(engine.db, 3);
      const answer = await post('get_paper', { key: caller.key, body: { id: '10.1000/xyz' } });
      expect([answer.status, answer.body]).to.deep.equal([500, { error: { code: 'internal', message: 'unexpected server-side failure' } }]);
      expect(answer.text).to.not.contain('secret stack');
      expect(await getBalance(engine.db, caller.accountId)).to.equal(3);
    });
    it('other methods and paths answer JSON, never HTML', async () => {
      const put = await call(server.baseUrl, '/api/v1/search_papers', { method: 'PUT' });
      expect([put.status, put.body.error.code, put.headers.get('content-type')]).to.deep.equal([405, 'method_not_allowed', 'application/json; charset=utf-8']);
      const elsewhere = await call(server.baseUrl, '/index.html');
      expect([elsewhere.status, elsewhere.body.error.code]).to.deep.equal([404, 'not_found']);
    });
  });

  describe('rate limit of part 8', () => {
    it('answers RateLimit headers on keyed calls, and 429 with Retry-After on the 61st request within a minute', async () => {
      const caller = await newCaller(engine.db, 0);
      const answers = [];
      for (let index = 0; index < 60; index += 1) answers.push(await post('list_capabilities', { key: caller.key, body: {} }));
      expect(answers.map((answer) => answer.status)).to.deep.equal(Array(60).fill(200));
      expect(answers[0]!.headers.get('ratelimit-limit')).to.equal('60');
      expect(answers[0]!.headers.get('ratelimit-remaining')).to.equal('59');
      expect(answers[59]!.headers.get('ratelimit-remaining')).to.equal('0');
      // The account-wide limit (10 times the key's by default) is the second policy; the key's is the tighter here.
      expect(answers[0]!.headers.get('ratelimit-policy')).to.equal('"per-key";q=60;w=60, "per-account";q=600;w=60');
      expect(answers[0]!.headers.get('ratelimit')).to.match(/^"per-key";r=59;t=\d+, "per-account";r=599;t=\d+$/);
      const limited = await post('list_capabilities', { key: caller.key, body: {} });
      expect(limited.status).to.equal(429);
      expect(limited.body.error.code).to.equal('rate_limited');
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`).to.equal(true);
      expect(limited.body.error.message).to.equal(`more than 60 requests per minute with this key; retry in ${retryAfter} s`);
      expect(limited.body.error.retry_after_s).to.equal(retryAfter);
    });
    it('limits failed key attempts per client address', async () => {
      const clientAddress = documentationAddress();
      const guesses = [];
      for (let index = 0; index < 12; index += 1) guesses.push((await post('search_papers', { key: `sm_guess${index}`, body: {}, clientAddress })).status);
      expect(guesses).to.deep.equal([...Array(10).fill(401), 429, 429]);
      const blocked = await post('search_papers', { key: 'sm_one_more_guess', body: { query: 'a' }, clientAddress });
      expect([blocked.status, blocked.body.error.code]).to.deep.equal([429, 'rate_limited']);
      expect(Number(blocked.headers.get('retry-after'))).to.be.within(1, 300);
      // Other people's failures from the same address never refuse a key that verifies.
      const caller = await newCaller(engine.db, 5);
      expect((await post('search_papers', { key: caller.key, body: { query: 'a' }, clientAddress })).status).to.equal(200);
    });
  });

  describe('secrets', () => {
    it('never stores or logs a raw key', async () => {
      const caller = await newCaller(engine.db, 5);
      await post('search_papers', { key: caller.key, body: { query: 'a' } });
      await post('search_papers', { key: caller.key, keyHeader: 'x-api-key', body: { query: caller.key } });
      expect(server.logLines.join('\n')).to.not.contain(caller.key);
      expect(server.logLines.join('\n')).to.not.contain(caller.key.slice(3));
      const tables: string[] =
        engine.name === 'mysql'
          ? (await engine.db.raw('show tables'))[0].map((row: Record<string, string>) => Object.values(row)[0])
          : (await engine.db.raw("select name from sqlite_master where type = 'table'")).map((row: { name: string }) => row.name);
      for (const table of tables) {
        const rows = await engine.db(table).select('*');
        expect(JSON.stringify(rows), table).to.not.contain(caller.key.slice(3));
      }
      const logged = server.logLines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'tool call');
      expect(Object.keys(logged.at(-1)).sort()).to.deep.equal(
        ['call_id', 'credits', 'duration_ms', 'level', 'msg', 'service', 'status', 'time', 'tool', 'transport'].sort(),
      );
    });
  });
});
