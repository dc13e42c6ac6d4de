import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'chai';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { callTool, connectMcp, type ToolAnswer } from '../support/mcp-client.ts';
import { newCaller, startServer, type TestServer } from '../support/server.ts';
import { PNG_SIGNATURE, fetchFile } from './helpers.ts';

const PRICE = 5;
const MECHANISM = 'TNF-α binds TNFR1, which recruits TRADD. TRADD activates the IKK complex.';

async function pollOverMcp(client: Client, figureId: string): Promise<ToolAnswer> {
  for (;;) {
    const answer = await callTool(client, 'get_figure', { figure_id: figureId });
    if (answer.isError || answer.structuredContent.extra.status !== 'pending') return answer;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describeOnEachEngine('figures over MCP', (engine) => {
  let server: TestServer;
  let client: Client | undefined;
  const filesDir = mkdtempSync(path.join(os.tmpdir(), 'research-tools-figures-'));
  before(async () => {
    // A sync wait the MCP connection must not use: agents get pending at once and poll.
    const env = { FIGURE_SYNC_WAIT_MS: '60000', FILES_DIR: filesDir, FIGURE_QUEUE: `test-${randomBytes(6).toString('hex')}` };
    server = await startServer(engine.db, { rateLimitPerMinute: 100_000, env });
  });
  after(async () => {
    await server.close();
    rmSync(filesDir, { recursive: true, force: true });
  });
  afterEach(async () => client?.close());

  it('create_figure and edit_figure answer pending with the figure id; get_figure polls to finished, with the image as links and inline', async () => {
    const caller = await newCaller(engine.db, 20);
    client = await connectMcp(server.baseUrl, caller.key);

    const created = await callTool(client, 'create_figure', { description: MECHANISM, kind: 'mechanism' });
    expect(created.isError).to.equal(undefined);
    expect(created.structuredContent.credits_used).to.equal(0);
    expect(created.structuredContent.extra).to.include({ status: 'pending', credits_used: 0 });
    const figureId = created.structuredContent.extra.figure_id as string;
    expect(figureId).to.match(/^fig_[A-Za-z0-9]{24}$/);

    const finished = await pollOverMcp(client, figureId);
    expect(finished.structuredContent.extra).to.include({ figure_id: figureId, status: 'finished', credits_used: PRICE });
    const [png, svg] = finished.structuredContent.files as Array<{ name: string; url: string; mimeType: string }>;
    expect(finished.content.slice(1)).to.deep.equal([
      { type: 'resource_link', uri: png!.url, name: png!.name, mimeType: 'image/png' },
      { type: 'image', data: (finished.content[2] as { data: string }).data, mimeType: 'image/png' },
      { type: 'resource_link', uri: svg!.url, name: svg!.name, mimeType: 'image/svg+xml' },
    ]);
    const inline = Buffer.from((finished.content[2] as { data: string }).data, 'base64');
    expect(inline.subarray(0, 8).equals(PNG_SIGNATURE)).to.equal(true);
    const served = Buffer.from(await (await fetchFile(server.baseUrl, png!.url)).arrayBuffer());
    expect(inline.equals(served), 'the inline image is the served PNG').to.equal(true);
    expect(await getBalance(engine.db, caller.accountId)).to.equal(20 - PRICE);
    expect(await ledgerSum(engine.db, caller.accountId)).to.equal(20 - PRICE);

    const edited = await callTool(client, 'edit_figure', { figure_id: figureId, instruction: 'use the cell style' });
    expect(edited.structuredContent.extra).to.include({ status: 'pending', parent_figure_id: figureId, credits_used: 0 });
    const editedFinished = await pollOverMcp(client, edited.structuredContent.extra.figure_id as string);
    expect(editedFinished.structuredContent.extra).to.include({ status: 'finished', style: 'cell', credits_used: PRICE });
    expect(await getBalance(engine.db, caller.accountId)).to.equal(20 - 2 * PRICE);
  });
});
