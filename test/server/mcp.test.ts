import { request as httpRequest } from 'node:http';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { getBalance, ledgerSum, setPackEnabled } from '../../src/ledger/index.ts';
import { MAX_BODY_BYTES } from '../../src/server/tool-call.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { callTool, connectMcp, type Revision } from '../support/mcp-client.ts';
import { call, documentationAddress, newCaller, startServer, type TestServer } from '../support/server.ts';
import { stubHandlers } from '../support/stub-handlers.ts';
import { tools } from '../../generated/tools.ts';
import { constraintInWords } from '../../codegen/emit/mcp.ts';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A POST to /mcp with exactly these headers (node:http lets a test set Host, unlike fetch); the JSON answer. */
function rawPost(baseUrl: string, headers: Record<string, string>, body: string): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const url = new URL(`${baseUrl}/mcp`);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-forwarded-for': documentationAddress(), ...headers },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const received = Buffer.concat(chunks).toString('utf8');
          // A 2025-era answer may come as one server-sent event; its data line is the JSON-RPC message.
          const text = /^data: (.*)$/m.exec(received)?.[1] ?? received;
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = text;
          }
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: parsed });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describeOnEachEngine('the MCP connection at POST /mcp, with the official SDK client over HTTP', (engine) => {
  let server: TestServer;
  const clients: Client[] = [];
  before(async () => {
    server = await startServer(engine.db, { handlers: stubHandlers() });
  });
  after(async () => server.close());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  async function connect(key: string, revision?: Revision): Promise<Client> {
    const client = await connectMcp(server.baseUrl, key, revision);
    clients.push(client);
    return client;
  }

  async function expectCharged(accountId: string, balance: number): Promise<void> {
    expect(await getBalance(engine.db, accountId), 'balance').to.equal(balance);
    expect(await ledgerSum(engine.db, accountId), 'sum of ledger entries').to.equal(balance);
  }

  describe('discovery', () => {
    it('lists every tool with the description and the input schema of its REST description (constraints between arguments in words)', async () => {
      const caller = await newCaller(engine.db, 0);
      const client = await connect(caller.key);
      const { tools: listed } = await client.listTools();
      expect(listed.map((tool) => tool.name).sort(), 'the tools listed are those of the manifest').to.deep.equal(Object.keys(tools).sort());
      for (const tool of listed) {
        const rest = await call(server.baseUrl, `/api/v1/${tool.name}`);
        const { 'x-constraints': constraints, ...schema } = rest.body.input_schema;
        expect({ ...tool.inputSchema, 'x-constraints': undefined }, tool.name).to.deep.equal({ ...schema, 'x-constraints': undefined });
        expect(tool.inputSchema['x-constraints'], tool.name).to.deep.equal(constraints?.map(constraintInWords));
        expect(tool.description?.startsWith(rest.body.description), tool.name).to.equal(true);
        expect(tool.outputSchema, tool.name).to.equal(undefined);
      }
      expect(listed.find((tool) => tool.name === 'search_papers')!.annotations).to.deep.equal({ readOnlyHint: true });
      expect(client.getInstructions()).to.contain('a failed call costs nothing');
    });

    it('answers clients of the 2026-07-28, 2025-11-25 and 2025-06-18 revisions alike', async () => {
      const caller = await newCaller(engine.db, 0);
      for (const revision of ['2026-07-28', '2025-11-25', '2025-06-18'] as const) {
        const client = await connect(caller.key, revision);
        expect(client.getNegotiatedProtocolVersion(), revision).to.equal(revision);
        expect((await client.listTools()).tools, revision).to.have.length(Object.keys(tools).length);
        expect((await callTool(client, 'list_capabilities', { discipline: 'humanities' })).structuredContent.summary, revision).to.equal(
          '2 capabilities with 2 tools in the humanities pack.',
        );
      }
    });
  });

  describe('a successful call', () => {
    it("is charged the tool's credits and answers the REST body as structuredContent and as text", async () => {
      const caller = await newCaller(engine.db, 10);
      const answer = await callTool(await connect(caller.key), 'search_papers', { query: 'open access' });
      expect(answer.isError).to.equal(undefined);
      expect(Object.keys(answer.structuredContent)).to.deep.equal(['summary', 'records', 'credits_used', 'call_id']);
      expect(answer.structuredContent).to.deep.include({ summary: '1 paper for "open access".', credits_used: 1 });
      expect(answer.structuredContent.call_id).to.match(/^call_[0-9a-f]{32}$/);
      expect(answer.content).to.deep.equal([{ type: 'text', text: JSON.stringify(answer.structuredContent) }]);
      await expectCharged(caller.accountId, 9);
    });
  });

  describe('failures are tool results with isError, the REST error object as text, and cost nothing', () => {
    async function expectToolError(answer: Awaited<ReturnType<typeof callTool>>, error: { code: string; message: string }): Promise<void> {
      expect(answer.isError).to.equal(true);
      // No structuredContent: clients check it against the tool's output schema, which describes a success.
      expect(answer.structuredContent).to.equal(undefined);
      expect(answer.content).to.deep.equal([{ type: 'text', text: JSON.stringify({ error }) }]);
    }

    it('invalid_input with the same message as REST gives for the same arguments', async () => {
      const caller = await newCaller(engine.db, 5);
      const client = await connect(caller.key);
      for (const args of [{ limit: 'x' }, { query: 'a', limit: 0, colour: 'red' }, { query: 'a', year_from: 2020, year_to: 2010 }]) {
        const rest = await call(server.baseUrl, '/api/v1/search_papers', { key: caller.key, body: args });
        expect(rest.status, JSON.stringify(args)).to.equal(400);
        await expectToolError(await callTool(client, 'search_papers', args), rest.body.error);
      }
      await expectCharged(caller.accountId, 5);
    });

    it("pack_disabled when the tool's pack is switched off", async () => {
      const caller = await newCaller(engine.db, 5);
      await setPackEnabled(engine.db, caller.accountId, 'general', false);
      await expectToolError(await callTool(await connect(caller.key), 'search_papers', { query: 'a' }), {
        code: 'pack_disabled',
        message: 'the general pack is switched off for this account; switch it on in the capability-packs settings',
      });
      await expectCharged(caller.accountId, 5);
    });

    it("insufficient_credits when the balance is below the tool's credits", async () => {
      const caller = await newCaller(engine.db, 1);
      await expectToolError(await callTool(await connect(caller.key), 'verify_references', { references: ['Smith J. A paper. 2020.'] }), {
        code: 'insufficient_credits',
        message: 'verify_references costs 2 credits; the account holds 1',
      });
      await expectCharged(caller.accountId, 1);
    });

    it('upstream_error when the tool cannot complete; the debit is refunded', async () => {
      const caller = await newCaller(engine.db, 3);
      await expectToolError(await callTool(await connect(caller.key), 'lookup_integer_sequence', { query: '1, 1, 2, 3, 5, 8' }), {
        code: 'upstream_error',
        message: 'no source answered: oeis did not answer within 15000 ms',
      });
      await expectCharged(caller.accountId, 3);
    });

    it('internal for an unexpected failure, without its stack', async () => {
      const caller = await newCaller(engine.db, 3);
      await expectToolError(await callTool(await connect(caller.key), 'get_paper', { id: '10.1000/xyz' }), {
        code: 'internal',
        message: 'unexpected server-side failure',
      });
      await expectCharged(caller.accountId, 3);
    });

    it('an unknown tool is a protocol error naming it', async () => {
      const caller = await newCaller(engine.db, 3);
      const client = await connect(caller.key);
      let failure: Error | undefined;
      await client.callTool({ name: 'make_coffee', arguments: {} }).catch((error: Error) => {
        failure = error;
      });
      expect(failure?.message).to.contain('no tool is named "make_coffee"; tools/list lists them');
    });
  });

  describe('packs', () => {
    it('tools/list shows only the tools of the packs switched on for the account', async () => {
      const caller = await newCaller(engine.db, 0);
      await setPackEnabled(engine.db, caller.accountId, 'life', false);
      await setPackEnabled(engine.db, caller.accountId, 'astro', false);
      const names = (await (await connect(caller.key)).listTools()).tools.map((tool) => tool.name);
      const rest = (await call(server.baseUrl, '/api/v1')).body.tools as Array<{ name: string; pack: string }>;
      expect(names).to.deep.equal(
        rest
          .filter((tool) => tool.pack !== 'life' && tool.pack !== 'astro')
          .map((tool) => tool.name)
          .sort(),
      );
      expect(names).to.include('search_papers').and.not.include('lookup_drug').and.not.include('query_gaia');
    });
  });

  describe('keys', () => {
    it('401 with a Bearer challenge and a JSON-RPC error body when the key is missing or not valid, before any method runs', async () => {
      const missing = await rawPost(server.baseUrl, {}, JSON.stringify(INITIALIZE));
      expect([missing.status, missing.headers['www-authenticate']]).to.deep.equal([401, 'Bearer realm="research-tools-api"']);
      const message = 'API key missing: send `Authorization: Bearer <key>` or `x-api-key: <key>`';
      expect(missing.body).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32000, message, data: { error: { code: 'unauthorized', message } } } });
      const bad = await rawPost(server.baseUrl, { 'x-api-key': 'sm_not_a_key' }, JSON.stringify(INITIALIZE));
      expect([bad.status, bad.headers['www-authenticate'], bad.body.error.message]).to.deep.equal([
        401,
        'Bearer realm="research-tools-api"',
        'API key not valid',
      ]);
    });

    it('accepts the key in x-api-key as in Authorization: Bearer', async () => {
      const caller = await newCaller(engine.db, 0);
      const answer = await rawPost(server.baseUrl, { 'x-api-key': caller.key }, JSON.stringify(INITIALIZE));
      expect([answer.status, answer.body.result.serverInfo.name]).to.deep.equal([200, 'research-tools-api']);
    });

    it('counts failed key attempts on /mcp with the REST ones, per client address', async () => {
      const clientAddress = documentationAddress();
      const statuses = [];
      for (let index = 0; index < 6; index += 1) {
        statuses.push((await call(server.baseUrl, '/api/v1/search_papers', { key: `sm_guess${index}`, body: {}, clientAddress })).status);
        statuses.push(
          (await rawPost(server.baseUrl, { 'x-api-key': `sm_guess${index}`, 'x-forwarded-for': clientAddress }, JSON.stringify(INITIALIZE))).status,
        );
      }
      expect(statuses).to.deep.equal([...Array(10).fill(401), 429, 429]);
    });

    it('never writes a key to the log', async () => {
      const caller = await newCaller(engine.db, 5);
      const client = await connect(caller.key);
      await client.listTools();
      await callTool(client, 'search_papers', { query: caller.key });
      expect(server.logLines.join('\n')).to.not.contain(caller.key.slice(3));
    });
  });

  describe('security of the address', () => {
    it("refuses another site's Host or Origin with 403 (DNS rebinding), and accepts the public and loopback names", async () => {
      const caller = await newCaller(engine.db, 0);
      const body = JSON.stringify(INITIALIZE);
      const key = { 'x-api-key': caller.key };
      expect((await rawPost(server.baseUrl, { ...key, host: 'evil.example.com' }, body)).status).to.equal(403);
      expect((await rawPost(server.baseUrl, { ...key, origin: 'http://evil.example.com' }, body)).status).to.equal(403);
      expect((await rawPost(server.baseUrl, { ...key, host: 'api.example.test', origin: 'https://api.example.test' }, body)).status).to.equal(200);
      expect((await rawPost(server.baseUrl, { ...key, host: 'localhost:8080', origin: 'http://localhost:8080' }, body)).status).to.equal(200);
    });

    it('refuses a body over the REST limit with 413', async () => {
      const caller = await newCaller(engine.db, 0);
      const huge = JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(MAX_BODY_BYTES) } });
      expect((await rawPost(server.baseUrl, { 'x-api-key': caller.key }, huge)).status).to.equal(413);
    });
  });
});

describeOnEachEngine('the per-key rate limit shared by REST and MCP', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(engine.db, { handlers: stubHandlers() });
  });
  after(async () => server.close());

  it('counts tools/call with REST calls (60 a minute in all) and never counts discovery', async () => {
    const caller = await newCaller(engine.db, 0);
    const client = await connectMcp(server.baseUrl, caller.key);
    try {
      for (let index = 0; index < 5; index += 1) await client.listTools();
      const outcomes: string[] = [];
      for (let index = 0; index < 30; index += 1) {
        outcomes.push(String((await call(server.baseUrl, '/api/v1/list_capabilities', { key: caller.key, body: {} })).status));
        outcomes.push((await callTool(client, 'list_capabilities')).isError ? 'error' : 'ok');
      }
      expect(outcomes).to.deep.equal(Array(30).fill(['200', 'ok']).flat());
      expect((await client.listTools()).tools).to.have.length(Object.keys(tools).length);

      const limited = await callTool(client, 'list_capabilities');
      expect(limited.isError).to.equal(true);
      const { error } = JSON.parse((limited.content[0] as { text: string }).text) as { error: { code: string; message: string; retry_after_s: number } };
      expect(error.code).to.equal('rate_limited');
      expect(error.message).to.match(/^more than 60 requests per minute with this key; retry in \d+ s$/);
      expect(error.message).to.equal(`more than 60 requests per minute with this key; retry in ${error.retry_after_s} s`);
      const rest = await call(server.baseUrl, '/api/v1/list_capabilities', { key: caller.key, body: {} });
      expect([rest.status, rest.body.error.code]).to.deep.equal([429, 'rate_limited']);
    } finally {
      await client.close();
    }
  });
});
