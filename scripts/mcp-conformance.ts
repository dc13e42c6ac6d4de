/**
 * npm run mcp:conformance — runs the official MCP conformance suite (@modelcontextprotocol/conformance)
 * against this server's POST /mcp, offline:
 *
 *  1. starts the real app on a loopback port, on a fresh embedded database, with one account and key;
 *  2. puts a loopback forwarder in front of it that adds that key to every request that has none,
 *     as an MCP client configured with the key header would (the suite's client sends no headers of
 *     its own), and passes everything else through unchanged, Host and Origin included;
 *  3. runs the server scenarios that apply to a server without the suite's own test tools, with the
 *     Node 22 the suite needs, both installed under scripts/mcp-conformance/ by
 *     `npm run mcp:conformance:install` (npm registry, once; it installs the MCP Inspector too,
 *     which test/server/mcp-clients.test.ts runs on the same Node 22).
 *
 * Exits 0 when every check of every scenario passes, 1 otherwise (2 when the suite is not installed).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import type { FigureJobRunner } from '../src/figures/runner.ts';
import { createAccount, createKey } from '../src/ledger/index.ts';
import { migrateToLatest, openDatabase } from '../src/database/index.ts';
import { createLogger } from '../src/logging.ts';
import { createApp } from '../src/server/app.ts';

/** initialize, ping, tools/list and DNS-rebinding protection: what applies to a server with its own tools. */
export const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

const suiteFolder = fileURLToPath(new URL('./mcp-conformance/', import.meta.url));
/** The Node 22 that the suite and the MCP Inspector need (the server runs on Node 20). */
export const node22 = path.join(suiteFolder, 'node_modules/node/bin/node');
const suite = path.join(suiteFolder, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** The MCP Inspector, installed beside the suite; its `--cli` mode is one of the clients the tests drive /mcp with. */
export const inspector = path.join(suiteFolder, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

/** Forwards every request to `port`, adding `x-api-key` when the request carries no key. */
function keyAddingForwarder(port: number, key: string): Server {
  return createServer((incoming, outgoing) => {
    const headers = { ...incoming.headers };
    if (headers.authorization === undefined && headers['x-api-key'] === undefined) headers['x-api-key'] = key;
    const forwarded = request({ host: '127.0.0.1', port, method: incoming.method, path: incoming.url, headers }, (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    });
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
}

/** Runs one scenario; its checks come from the results folder the suite writes. */
async function runScenario(scenario: string, url: string, resultsFolder: string): Promise<Check[]> {
  const exitCode = await new Promise<number>((resolve) => {
    const child = spawn(node22, [suite, 'server', '--url', url, '--scenario', scenario, '--output-dir', path.join(resultsFolder, 'results')], {
      cwd: resultsFolder,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
  const results = path.join(resultsFolder, 'results');
  const folder = existsSync(results) ? readdirSync(results).find((name) => name.includes(scenario)) : undefined;
  if (!folder) return [{ id: scenario, status: 'FAILURE', errorMessage: `the suite wrote no results (exit code ${exitCode})` }];
  const checks = JSON.parse(readFileSync(path.join(results, folder, 'checks.json'), 'utf8')) as Check[];
  if (exitCode !== 0 && checks.every((check) => check.status !== 'FAILURE')) {
    checks.push({ id: scenario, status: 'FAILURE', errorMessage: `the suite exited with ${exitCode}` });
  }
  return checks;
}

export async function runConformance(): Promise<number> {
  if (!existsSync(node22) || !existsSync(suite)) {
    console.error('mcp:conformance: the suite is not installed; run `npm run mcp:conformance:install` once (it needs the npm registry).');
    return 2;
  }
  const work = mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
  const config = loadConfig({
    PORT: '0',
    DATABASE_URL: `sqlite:${path.join(work, 'ledger.sqlite')}`,
    PUBLIC_BASE_URL: 'http://localhost',
    FILES_DIR: path.join(work, 'files'),
    LOG_LEVEL: 'warn',
  });
  const db = openDatabase(config.databaseUrl);
  const servers: Server[] = [];
  let app: Awaited<ReturnType<typeof createApp>> | undefined;
  try {
    await migrateToLatest(db);
    const account = await createAccount(db, { name: 'conformance', credits: 0 });
    const { key } = await createKey(db, account.id, 'conformance');
    app = await createApp({ db, config, logger: createLogger(config.logLevel) });
    const appServer = app.listen(0, '127.0.0.1');
    servers.push(appServer);
    await new Promise((resolve) => appServer.once('listening', resolve));
    const forwarder = keyAddingForwarder((appServer.address() as AddressInfo).port, key);
    servers.push(forwarder);
    const url = `http://localhost:${await listen(forwarder)}/mcp`;

    let failed = 0;
    for (const scenario of SCENARIOS) {
      const checks = await runScenario(scenario, url, work);
      for (const check of checks.filter((each) => each.status !== 'INFO')) {
        if (check.status === 'FAILURE') failed += 1;
        console.log(
          `${check.status === 'FAILURE' ? 'FAIL' : check.status === 'SUCCESS' ? 'pass' : check.status.toLowerCase()}  ${scenario}: ${check.id}${check.errorMessage ? ` — ${check.errorMessage}` : ''}`,
        );
      }
    }
    console.log(failed === 0 ? `mcp:conformance: all checks of ${SCENARIOS.length} scenarios passed` : `mcp:conformance: ${failed} checks failed`);
    return failed === 0 ? 0 : 1;
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await (app?.locals.figureRunner as FigureJobRunner | undefined)?.stop();
    await db.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runConformance();
}
