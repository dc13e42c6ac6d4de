import { expect } from 'chai';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { getBalance } from '../../src/ledger/index.ts';
import { MAX_STORED_ERROR_BYTES } from '../../src/server/idempotency.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { callTool, connectMcp, errorOf } from '../support/mcp-client.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { stubHandlers } from '../support/stub-handlers.ts';

const CONTROL_CHARACTERS = 'must not contain control characters (tab, line feed and carriage return are allowed)';
const LONE_SURROGATE = 'must be text without a lone UTF-16 surrogate (\\uD800-\\uDFFF)';

describeOnEachEngine('what a hostile client sends, answered as documented', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(engine.db, { handlers: stubHandlers() });
  });
  after(async () => server.close());

  const post = (tool: string, options: Parameters<typeof call>[2] = {}) => call(server.baseUrl, `/api/v1/${tool}`, { method: 'POST', ...options });

  describe('input refused at the door, a 400 naming the field, free', () => {
    it('a control character XML forbids in a figure description, a label or an edit instruction', async () => {
      const caller = await newCaller(engine.db, 0);
      const description = await post('create_figure', { key: caller.key, body: { description: 'A activates B\u0018' } });
      expect([description.status, description.body.error]).to.deep.equal([400, { code: 'invalid_input', message: `description: ${CONTROL_CHARACTERS}` }]);
      const label = await post('create_figure', { key: caller.key, body: { description: 'A activates B', labels: ['A', 'x\u0000'] } });
      expect(label.body.error.message).to.equal(`labels.1: ${CONTROL_CHARACTERS}`);
      const instruction = await post('edit_figure', { key: caller.key, body: { figure_id: 'fig_x', instruction: 'rename A to \u001f' } });
      expect(instruction.body.error.message).to.equal(`instruction: ${CONTROL_CHARACTERS}`);
      // Tab, line feed and carriage return are text: past the schema, the next check is the credits (none here).
      const allowed = await post('create_figure', { key: caller.key, body: { description: 'A\tactivates\r\nB' } });
      expect([allowed.status, allowed.body.error.code]).to.deep.equal([402, 'insufficient_credits']);
    });

    it('a date that does not exist, though shaped like one (2023-02-30)', async () => {
      const caller = await newCaller(engine.db, 5);
      const answer = await post('search_earthquakes', { key: caller.key, body: { start: '2023-02-30' } });
      expect([answer.status, answer.body.error]).to.deep.equal([400, { code: 'invalid_input', message: 'start: must match format "date"' }]);
    });

    it("create_figure's label limits are in the published schema and refused by it: 31 labels, a label of 121 characters", async () => {
      const labels = openapi.components.schemas.CreateFigureArgs.properties.labels;
      expect([labels.maxItems, labels.items.maxLength]).to.deep.equal([30, 120]);
      const caller = await newCaller(engine.db, 0);
      const many = await post('create_figure', {
        key: caller.key,
        body: { description: 'A activates B', labels: Array.from({ length: 31 }, (_, i) => `L${i}`) },
      });
      expect([many.status, many.body.error.message]).to.deep.equal([400, 'labels: must not have more than 30 items']);
      const long = await post('create_figure', { key: caller.key, body: { description: 'A activates B', labels: ['x'.repeat(121)] } });
      expect([long.status, long.body.error.message]).to.deep.equal([400, 'labels.0: must not have more than 120 characters']);
    });

    it('a lone surrogate in any string argument, over REST and over MCP', async () => {
      const caller = await newCaller(engine.db, 5);
      // JSON.stringify writes a lone surrogate as the escape \ud800, as the fuzzer sent it.
      const journal = await post('journal_info', { key: caller.key, rawBody: '{"journal":"a\\ud800"}' });
      expect([journal.status, journal.body.error]).to.deep.equal([400, { code: 'invalid_input', message: `journal: ${LONE_SURROGATE}` }]);
      const nested = await post('search_papers', { key: caller.key, body: { query: 'ok', sources: ['openalex', '\udc00x'] } });
      expect(nested.body.error.message).to.equal(`sources.1: ${LONE_SURROGATE}`);
      // A surrogate pair is a character like any other.
      expect((await post('search_papers', { key: caller.key, body: { query: 'emoji \ud83d\ude00' } })).status).to.equal(200);
      const client = await connectMcp(server.baseUrl, caller.key);
      try {
        const answer = await callTool(client, 'journal_info', { journal: 'a\ud800' });
        expect([answer.isError, errorOf(answer)]).to.deep.equal([true, { code: 'invalid_input', message: `journal: ${LONE_SURROGATE}` }]);
      } finally {
        await client.close();
      }
      expect(await getBalance(engine.db, caller.accountId)).to.equal(4);
    });
  });

  describe('bounded answers', () => {
    it('75,000 unknown arguments: the 400 names the first 20 and says how many more; stored for an Idempotency-Key within its bound', async function () {
      this.timeout(60_000);
      const caller = await newCaller(engine.db, 0);
      const body = Object.fromEntries(Array.from({ length: 75_000 }, (_, index) => [`u${index}`, 0]));
      const send = () => post('list_capabilities', { key: caller.key, body, headers: { 'idempotency-key': 'many-unknowns' } });
      const first = await send();
      expect(first.status).to.equal(400);
      const problems = first.body.error.message.split('; ');
      expect(problems).to.have.length(21);
      expect(problems.slice(0, 2)).to.deep.equal(['u0: unknown argument', 'u1: unknown argument']);
      expect(problems[20]).to.equal('and 74980 more problems');
      const [row] = await engine.db('idempotency_keys').where({ account_id: caller.accountId, idempotency_key: 'many-unknowns' }).select('status', 'body');
      expect(Number(row.status)).to.equal(400);
      expect(Buffer.byteLength(row.body)).to.be.at.most(MAX_STORED_ERROR_BYTES);
      const replay = await send();
      expect([replay.status, replay.text, replay.headers.get('idempotent-replayed')]).to.deep.equal([400, first.text, 'true']);
    });

    it('a very long unknown argument name is cut in the message', async () => {
      const caller = await newCaller(engine.db, 0);
      const answer = await post('list_capabilities', { key: caller.key, body: { ['n'.repeat(100_000)]: 1 } });
      expect(answer.status).to.equal(400);
      expect(answer.body.error.message).to.equal(`${'n'.repeat(199)}…`);
    });
  });

  describe('methods and addresses', () => {
    it('a wrong method on a known address is 405 with Allow; on an unknown tool 404 unknown_tool', async () => {
      const cases: Array<[string, string, number, string | null]> = [
        ['POST', '/api/v1/openapi.json', 405, 'GET, HEAD'],
        ['PUT', '/api/v1', 405, 'GET, HEAD'],
        ['DELETE', '/api/v1', 405, 'GET, HEAD'],
        ['DELETE', '/api/v1/search_papers', 405, 'GET, HEAD, POST'],
        ['PATCH', '/api/v1/account', 405, 'GET, HEAD'],
        ['DELETE', '/api/v1/account/keys', 405, 'GET, HEAD, POST'],
        ['POST', '/healthz', 405, 'GET, HEAD'],
        ['POST', '/docs', 405, 'GET, HEAD'],
        ['PUT', '/api/v1/make_coffee', 404, null],
      ];
      for (const [method, path, status, allow] of cases) {
        const answer = await call(server.baseUrl, path, { method });
        expect([method, path, answer.status, answer.headers.get('allow'), answer.body?.error?.code], `${method} ${path}`).to.deep.equal([
          method,
          path,
          status,
          allow,
          status === 405 ? 'method_not_allowed' : 'unknown_tool',
        ]);
      }
    });

    it('asset names are case-exact: a case variant is a JSON 404, not a 500', async () => {
      for (const path of ['/docs/PAGE.JS', '/docs/Page.css', '/DOCS', '/account/ACCOUNT.JS', '/API/V1']) {
        const answer = await call(server.baseUrl, path);
        expect([path, answer.status, answer.body?.error?.code]).to.deep.equal([path, 404, 'not_found']);
      }
      expect(server.logLines.filter((line) => line.includes('"level":50'))).to.deep.equal([]);
    });

    it('the JSON-only GET addresses answer 406 to an Accept without JSON, and 200 with media-type parameters', async () => {
      for (const path of ['/api/v1', '/api/v1/openapi.json', '/api/v1/search_papers']) {
        const refused = await call(server.baseUrl, path, { headers: { accept: 'text/html' } });
        expect([path, refused.status, refused.body.error.code]).to.deep.equal([path, 406, 'not_acceptable']);
        const accepted = await call(server.baseUrl, path, { headers: { accept: 'application/json; charset=utf-8' } });
        expect([path, accepted.status]).to.deep.equal([path, 200]);
      }
      const caller = await newCaller(engine.db, 0);
      const tool = await post('list_capabilities', { key: caller.key, body: {}, headers: { accept: 'application/json; charset=utf-8' } });
      expect(tool.status).to.equal(200);
    });
  });
});

describeOnEachEngine('the account-wide rate limit and the limit on new keys, over HTTP', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(engine.db, {
      handlers: stubHandlers(),
      rateLimitPerMinute: 2,
      env: { RATE_LIMIT_ACCOUNT_PER_MINUTE: '3', KEY_CREATIONS_PER_HOUR: '2' },
    });
  });
  after(async () => server.close());

  it("two keys of one account share the account's 3 requests a minute, REST and MCP alike; another account is not affected", async () => {
    const caller = await newCaller(engine.db, 0);
    const second = await call(server.baseUrl, '/api/v1/account/keys', { key: caller.key, method: 'POST', body: {} });
    expect(second.status).to.equal(201);
    const statuses = [];
    for (const key of [caller.key, caller.key, second.body.key])
      statuses.push((await call(server.baseUrl, '/api/v1/list_capabilities', { key, body: {} })).status);
    expect(statuses).to.deep.equal([200, 200, 200]);
    const refused = await call(server.baseUrl, '/api/v1/list_capabilities', { key: second.body.key, body: {} });
    expect([refused.status, refused.headers.get('ratelimit-limit'), refused.headers.get('ratelimit-remaining')]).to.deep.equal([429, '3', '0']);
    expect(refused.body.error.message).to.match(/^more than 3 requests per minute with this account's keys together; retry in \d+ s$/);
    const client = await connectMcp(server.baseUrl, second.body.key);
    try {
      const overMcp = await callTool(client, 'list_capabilities', {});
      expect([overMcp.isError, errorOf(overMcp).code]).to.deep.equal([true, 'rate_limited']);
    } finally {
      await client.close();
    }
    const other = await newCaller(engine.db, 0);
    expect((await call(server.baseUrl, '/api/v1/list_capabilities', { key: other.key, body: {} })).status).to.equal(200);
  });

  it('an account makes at most KEY_CREATIONS_PER_HOUR new keys an hour, deleting them or not: the next is 429 with Retry-After', async () => {
    const caller = await newCaller(engine.db, 0);
    const statuses = [];
    for (let index = 0; index < 2; index += 1) {
      const created = await call(server.baseUrl, '/api/v1/account/keys', { key: caller.key, method: 'POST', body: {} });
      statuses.push(created.status);
      statuses.push((await call(server.baseUrl, `/api/v1/account/keys/${created.body.id}`, { key: caller.key, method: 'DELETE' })).status);
    }
    const refused = await call(server.baseUrl, '/api/v1/account/keys', { key: caller.key, method: 'POST', body: {} });
    expect(statuses).to.deep.equal([201, 200, 201, 200]);
    expect([refused.status, refused.body.error.code]).to.deep.equal([429, 'rate_limited']);
    expect(refused.body.error.message).to.match(/^more than 2 new keys per hour in this account; retry in \d+ s$/);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(3000, 3600);
    expect((await call(server.baseUrl, '/api/v1/account/keys', { key: caller.key })).body.keys).to.have.length(1);
  });
});
