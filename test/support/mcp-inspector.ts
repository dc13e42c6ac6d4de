/**
 * The MCP Inspector's CLI mode as an agent client of /mcp: one `tools/call` per run, its result
 * read from standard output. The Inspector needs Node 22; it and that Node are installed under
 * scripts/mcp-conformance/ by `npm run mcp:conformance:install`. Without them the suites that use it
 * skip, saying so, except in CI where they fail.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { inspector, node22 } from '../../scripts/mcp-conformance.ts';
import { removeAtExit } from './remove-at-exit.ts';
import { documentationAddress } from './server.ts';

/** The Inspector's exit code when the tool answered a result with `isError: true` (a protocol error exits otherwise). */
export const TOOL_IS_ERROR_EXIT = 5;

export function skipOrFailWithoutInspector(context: Mocha.Context): void {
  if (existsSync(node22) && existsSync(inspector)) return;
  const why = 'the MCP Inspector and the Node 22 it needs are not installed: run `npm run mcp:conformance:install` once';
  if (process.env.CI) throw new Error(`${why} (.ci/run does so before the tests)`);
  console.log(`Skipped: ${why}.`);
  context.skip();
}

let home: string | undefined;

export interface InspectorRun {
  exitCode: number;
  /** The tools/call result it printed. */
  result: CallToolResult;
  stderr: string;
}

/** `tools/call` of `tool` with `args` (each value as JSON, as the CLI reads `--tool-arg name=value`). */
export function inspectorCall(baseUrl: string, key: string, tool: string, args: Record<string, unknown>): Promise<InspectorRun> {
  // Its catalogue and storage go to a folder of this test process, never to the user's home.
  if (!home) removeAtExit((home = mkdtempSync(path.join(os.tmpdir(), 'mcp-inspector-'))));
  const toolArgs = Object.entries(args).flatMap(([name, value]) => ['--tool-arg', `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`]);
  const command = [inspector, '--cli', `${baseUrl}/mcp`, '--transport', 'http'];
  command.push('--header', `Authorization: Bearer ${key}`, '--header', `X-Forwarded-For: ${documentationAddress()}`);
  command.push('--method', 'tools/call', '--tool-name', tool, ...toolArgs);
  return new Promise((resolve, reject) => {
    execFile(
      node22,
      command,
      { env: { ...process.env, HOME: home, MCP_CATALOG_PATH: path.join(home!, 'mcp.json') }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const exitCode = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        try {
          resolve({ exitCode, result: JSON.parse(stdout) as CallToolResult, stderr });
        } catch {
          reject(new Error(`the Inspector printed no result (exit code ${exitCode}): ${stdout}${stderr}`));
        }
      },
    );
  });
}
