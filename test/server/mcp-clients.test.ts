import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { errorStatus } from '../../generated/errors.ts';
import { getBalance, setPackEnabled } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { connectAgent, errorOf, SDK_CLIENTS, type AgentClient } from '../support/mcp-client.ts';
import { inspectorCall, skipOrFailWithoutInspector, TOOL_IS_ERROR_EXIT } from '../support/mcp-inspector.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { stubHandlers } from '../support/stub-handlers.ts';

/** A key's calls a minute on this suite's server: small, so that the 429 case needs few calls. */
const RATE = 3;

interface Failure {
  status: number;
  code: keyof typeof errorStatus;
  tool: string;
  args: Record<string, unknown>;
  credits: number;
  /** Brings the account or key into the state that fails. */
  prepare?(caller: { accountId: string; key: string }): Promise<void>;
  /** The tool is not in the caller's tools/list: a client calls it from a list it read earlier. */
  unlisted?: true;
}

const FAILURES: Failure[] = [
  { status: 400, code: 'invalid_input', tool: 'search_papers', args: { query: 'open access', limit: 'x' }, credits: 5 },
  { status: 402, code: 'insufficient_credits', tool: 'verify_references', args: { references: ['Smith J. A paper. Nature. 2020.'] }, credits: 1 },
  {
    status: 403,
    code: 'pack_disabled',
    tool: 'search_papers',
    args: { query: 'open access' },
    credits: 5,
    prepare: async (caller) => void (await setPackEnabled(server.db, caller.accountId, 'general', false)),
    unlisted: true,
  },
  {
    status: 429,
    code: 'rate_limited',
    tool: 'list_capabilities',
    args: {},
    credits: 5,
    prepare: async (caller) => {
      for (let index = 0; index < RATE; index += 1)
        expect((await call(server.baseUrl, '/api/v1/list_capabilities', { key: caller.key, body: {} })).status).to.equal(200);
    },
  },
  // The stub lookup_integer_sequence fails as when no source answers.
  { status: 502, code: 'upstream_error', tool: 'lookup_integer_sequence', args: { query: '1, 1, 2, 3, 5, 8' }, credits: 3 },
];

let server: TestServer & { db: Parameters<typeof startServer>[0] };

/**
 * A loopback proxy in front of /mcp that answers tools/list with another key's list (an account with
 * every pack on): an agent that read its list before a pack was switched off. The Inspector calls
 * only tools it has just listed.
 */
async function listingEarlier(baseUrl: string, listingKey: string): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(baseUrl);
  const proxy: Server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = { ...incoming.headers };
      if (/"method"\s*:\s*"tools\/list"/.test(body.toString())) headers.authorization = `Bearer ${listingKey}`;
      const forwarded = request({ host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      forwarded.on('error', () => outgoing.destroy());
      forwarded.end(body);
    });
  });
  proxy.listen(0, '127.0.0.1');
  await new Promise((resolve) => proxy.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

describeOnEachEngine('every agent client reads a failed call as a tool result naming the REST error code', (engine) => {
  before(async () => {
    server = Object.assign(await startServer(engine.db, { handlers: stubHandlers(), rateLimitPerMinute: RATE }), { db: engine.db });
  });
  after(async () => server.close());

  it('the failures below answer these statuses over REST', () => {
    expect(FAILURES.map((failure) => [failure.code, errorStatus[failure.code]])).to.deep.equal(FAILURES.map((failure) => [failure.code, failure.status]));
  });

  for (const clientName of SDK_CLIENTS) {
    describe(`the official ${clientName} client`, () => {
      let client: AgentClient | undefined;
      afterEach(async () => client?.close());

      for (const failure of FAILURES) {
        it(`${failure.status} ${failure.code}: a result with isError and the error JSON as text, nothing charged`, async () => {
          const caller = await newCaller(engine.db, failure.credits);
          await failure.prepare?.(caller);
          client = await connectAgent(clientName, server.baseUrl, caller.key);
          const result = await client.callTool(failure.tool, failure.args);
          expect(result.isError).to.equal(true);
          expect(result.structuredContent).to.equal(undefined);
          expect(errorOf(result).code).to.equal(failure.code);
          expect(await getBalance(engine.db, caller.accountId)).to.equal(failure.credits);
        });
      }

      it('a successful call still answers the REST body as structuredContent and as text', async () => {
        const caller = await newCaller(engine.db, 2);
        client = await connectAgent(clientName, server.baseUrl, caller.key);
        const result = await client.callTool('search_papers', { query: 'open access' });
        expect(result.isError).to.not.equal(true);
        expect(result.structuredContent).to.deep.include({ summary: '1 paper for "open access".', credits_used: 1 });
        expect(JSON.parse((result.content[0] as { text: string }).text)).to.deep.equal(result.structuredContent);
      });
    });
  }

  // What a client makes of an answer does not depend on the database: the Inspector (a Node 22 process per call) runs against one engine.
  if (engine.name !== 'sqlite') return;
  describe("the MCP Inspector's CLI mode", () => {
    before(function () {
      skipOrFailWithoutInspector(this);
    });

    for (const failure of FAILURES) {
      it(`${failure.status} ${failure.code}: prints a result with isError and the error JSON as text (its "tool returned an error" exit), nothing charged`, async () => {
        const caller = await newCaller(engine.db, failure.credits);
        await failure.prepare?.(caller);
        const proxy = failure.unlisted ? await listingEarlier(server.baseUrl, (await newCaller(engine.db, 0)).key) : undefined;
        const run = await inspectorCall(proxy?.url ?? server.baseUrl, caller.key, failure.tool, failure.args).finally(() => proxy?.close());
        expect(run.exitCode, run.stderr).to.equal(TOOL_IS_ERROR_EXIT);
        expect(run.result.isError).to.equal(true);
        expect(errorOf(run.result).code).to.equal(failure.code);
        expect(await getBalance(engine.db, caller.accountId)).to.equal(failure.credits);
      });
    }
  });
});
