/** Shared by the figure suites: PNG facts, gated and failing renderers, polling get_figure. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import type { FigureSpec } from '../../src/figures/model.ts';
import { BuiltinRenderer, type FigureRenderer, type RenderedFigure } from '../../src/figures/renderer.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { removeAtExit } from '../support/remove-at-exit.ts';
import { call, type Answer } from '../support/server.ts';

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature').to.equal(true);
  expect(png.toString('latin1', 12, 16)).to.equal('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The text content of every <text>/<tspan> element, unescaped. */
export function svgTexts(svg: string): string[] {
  const texts: string[] = [];
  for (const match of svg.matchAll(/<(text|tspan)\b[^>]*>([^<]*)</g)) {
    const text = match[2]!
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
    if (text) texts.push(text);
  }
  return texts;
}

export function temporaryFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'research-tools-figures-'));
  removeAtExit(folder);
  return folder;
}

/** Renders for real once its gate is opened (so a test sees the pending state first). */
export class GatedRenderer implements FigureRenderer {
  private open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  renders = 0;

  async render(spec: FigureSpec): Promise<RenderedFigure> {
    await this.gate;
    this.renders++;
    return new BuiltinRenderer().render(spec);
  }

  release(): void {
    this.open();
  }
}

export class FailingRenderer implements FigureRenderer {
  async render(): Promise<RenderedFigure> {
    throw new Error('simulated renderer fault');
  }
}

/** Fetches a file URL of the answer (built on PUBLIC_BASE_URL) from the test server instead. */
export async function fetchFile(baseUrl: string, url: string): Promise<Response> {
  const address = new URL(url);
  return fetch(`${baseUrl}${address.pathname}`);
}

/** Calls get_figure until the figure is no longer pending (bounded by the test's timeout). */
export async function pollFigure(baseUrl: string, key: string, figureId: string): Promise<Answer> {
  for (;;) {
    const answer = await call(baseUrl, '/api/v1/get_figure', { key, body: { figure_id: figureId } });
    if (answer.status !== 200 || answer.body.extra.status !== 'pending') return answer;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function ledgerKinds(db: Knex, callId: string): Promise<Array<{ kind: string; amount: number }>> {
  const rows: Array<{ kind: string; amount: unknown }> = await db('ledger_entries').where({ call_id: callId }).orderBy('id').select('kind', 'amount');
  return rows.map((row) => ({ kind: row.kind, amount: Number(row.amount) }));
}

/** Checks an answer body against the tool's result schema in the generated OpenAPI document. */
export async function expectMatchesResultSchema(tool: 'CreateFigure' | 'EditFigure' | 'GetFigure', body: unknown): Promise<void> {
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const formats = (await import('ajv-formats')) as unknown as { default: { default?: unknown } };
  const addFormats = formats.default.default ?? formats.default;
  const openapi = (await import('../../generated/openapi.json', { with: { type: 'json' } })).default as { components: { schemas: Record<string, unknown> } };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (a: unknown) => void)(ajv);
  ajv.addSchema({ $id: 'openapi', components: openapi.components } as never);
  const validate = ajv.getSchema(`openapi#/components/schemas/${tool}Result`)!;
  expect(validate(body), JSON.stringify(validate.errors)).to.equal(true);
}

const serveEntry = new URL('../support/serve.ts', import.meta.url).pathname;

/**
 * Declares, inside a suite, a way to start real server processes on the engine's database, each
 * answering figures at once as pending and taking figures only from the suite's own render queue
 * (other servers on a shared database never take them); they are stopped after each test.
 */
export function serverProcessesOf(engine: { url: string }): (env: Record<string, string>) => Promise<ServerProcess> {
  const running: ServerProcess[] = [];
  const queue = `test-${randomBytes(6).toString('hex')}`;
  afterEach(async function () {
    await Promise.all(running.splice(0).map((server) => server.stop()));
  });
  return async (env) => {
    const server = await startServerProcess(serveEntry, {
      DATABASE_URL: engine.url,
      FIGURE_SYNC_WAIT_MS: '0',
      FIGURE_QUEUE: queue,
      RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    });
    running.push(server);
    return server;
  };
}
