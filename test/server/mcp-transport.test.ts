import { once } from 'node:events';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { expect } from 'chai';
import { MAX_BATCH_ANSWER_BYTES, MAX_BATCH_MESSAGES } from '../../src/server/mcp-batches.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { call, documentationAddress, newCaller, startServer, type TestServer } from '../support/server.ts';
import { stubHandlers } from '../support/stub-handlers.ts';

/** A 2025-03-26 client's messages (the revision that still had JSON-RPC batches). */
const REVISION = '2025-03-26';

interface RawAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
  socket: Socket;
  reusedSocket: boolean;
}

/** A POST to /mcp through `agent`, with exactly these headers; the answer read to its end. */
function post(baseUrl: string, agent: Agent, headers: Record<string, string>, body: string): Promise<RawAnswer> {
  const url = new URL(`${baseUrl}/mcp`);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': REVISION,
          'x-forwarded-for': documentationAddress(),
          ...headers,
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            socket: outgoing.socket as Socket,
            reusedSocket: outgoing.reusedSocket,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const toolsList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const toolsCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describeOnEachEngine('the MCP connection itself: Connection headers and bounded batches', (engine) => {
  let server: TestServer;
  let agent: Agent;
  before(async () => {
    server = await startServer(engine.db, { handlers: stubHandlers() });
  });
  after(async () => server.close());
  beforeEach(() => {
    agent = new Agent({ keepAlive: true });
  });
  afterEach(() => agent.destroy());

  describe('Connection', () => {
    it('a request with Connection: close gets its event stream with Connection: close, and the server closes the socket after it', async () => {
      const caller = await newCaller(engine.db, 0);
      const answer = await post(server.baseUrl, agent, { 'x-api-key': caller.key, connection: 'close' }, JSON.stringify(toolsList(1)));
      expect([answer.status, answer.headers['content-type'], answer.headers.connection]).to.deep.equal([200, 'text/event-stream', 'close']);
      if (!answer.socket.destroyed) await once(answer.socket, 'close');
      expect(answer.socket.destroyed).to.equal(true);
    });

    it('without it, the connection is kept for the next request', async () => {
      const caller = await newCaller(engine.db, 0);
      const first = await post(server.baseUrl, agent, { 'x-api-key': caller.key }, JSON.stringify(toolsList(1)));
      const second = await post(server.baseUrl, agent, { 'x-api-key': caller.key }, JSON.stringify(toolsList(2)));
      expect([first.headers.connection, second.status, second.reusedSocket]).to.deep.equal(['keep-alive', 200, true]);
    });
  });

  describe('batches', () => {
    it(`a batch of more than ${MAX_BATCH_MESSAGES} messages is refused with 400 before any runs`, async () => {
      const caller = await newCaller(engine.db, 5);
      const batch = Array.from({ length: MAX_BATCH_MESSAGES + 1 }, (_, index) => toolsCall(index + 1, 'search_papers', { query: 'a' }));
      const answer = await post(server.baseUrl, agent, { 'x-api-key': caller.key }, JSON.stringify(batch));
      expect([answer.status, JSON.parse(answer.text)]).to.deep.equal([
        400,
        {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32600,
            message: `a batch may hold at most ${MAX_BATCH_MESSAGES} messages; this one holds ${MAX_BATCH_MESSAGES + 1}: send the rest in other requests`,
          },
        },
      ]);
      const account = await call(server.baseUrl, '/api/v1/account', { key: caller.key });
      expect([account.body.account.balance, account.body.recent_calls]).to.deep.equal([5, []]);
    });

    it(`once a batch's answers pass ${MAX_BATCH_ANSWER_BYTES} bytes, its remaining requests are not run and say so`, async () => {
      const caller = await newCaller(engine.db, 0);
      const batch = Array.from({ length: MAX_BATCH_MESSAGES }, (_, index) => toolsList(index + 1));
      const answer = await post(server.baseUrl, agent, { 'x-api-key': caller.key }, JSON.stringify(batch));
      expect([answer.status, answer.headers['content-type']]).to.deep.equal([200, 'application/json; charset=utf-8']);
      const answers = JSON.parse(answer.text) as Array<{ id: number; result?: { tools: unknown[] }; error?: { code: number; message: string } }>;
      const listBytes = Buffer.byteLength(JSON.stringify(answers[0]));
      const run = Math.ceil(MAX_BATCH_ANSWER_BYTES / listBytes);
      expect(run, 'lists that fit').to.be.lessThan(MAX_BATCH_MESSAGES);
      expect(answers.map((each) => each.id)).to.deep.equal(batch.map((message) => message.id));
      expect(answers.slice(0, run).every((each) => each.result?.tools.length === answers[0]!.result!.tools.length)).to.equal(true);
      const notRun = `not run: the answers of this batch passed ${MAX_BATCH_ANSWER_BYTES} bytes; send this request on its own`;
      expect(answers.slice(run).map((each) => each.error)).to.deep.equal(answers.slice(run).map(() => ({ code: -32000, message: notRun })));
      expect(answer.text.length).to.be.lessThan(MAX_BATCH_ANSWER_BYTES + listBytes + 1000);
    });

    it("each tools/call of a batch is counted against the key's rate and charged like a single request; its discovery is not counted", async () => {
      const caller = await newCaller(engine.db, 5);
      const batch = [
        toolsList(1),
        toolsCall(2, 'search_papers', { query: 'a' }),
        toolsCall(3, 'list_capabilities'),
        toolsCall(4, 'search_papers', { query: 'b' }),
      ];
      const answer = await post(server.baseUrl, agent, { 'x-api-key': caller.key }, JSON.stringify(batch));
      const answers = JSON.parse(answer.text) as Array<{ id: number; result: { structuredContent?: { summary: string; credits_used: number } } }>;
      expect(answers.map((each) => [each.id, each.result.structuredContent?.credits_used])).to.deep.equal([
        [1, undefined],
        [2, 1],
        [3, 0],
        [4, 1],
      ]);
      const rest = await call(server.baseUrl, '/api/v1/list_capabilities', { key: caller.key, body: {} });
      expect(rest.headers.get('ratelimit-remaining'), 'three calls in the batch, one over REST').to.equal(String(60 - 4));
      expect((await call(server.baseUrl, '/api/v1/account', { key: caller.key })).body.account.balance).to.equal(3);
    });

    it('a batch of notifications alone is accepted with 202', async () => {
      const caller = await newCaller(engine.db, 0);
      const answer = await post(server.baseUrl, agent, { 'x-api-key': caller.key }, JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/initialized' }]));
      expect([answer.status, answer.text]).to.deep.equal([202, '']);
    });
  });
});
