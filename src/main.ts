/**
 * npm start: applies the ledger migrations, starts the server, and on a fresh embedded database
 * creates a first account and key so a newcomer can make a call at once.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ToolHandlers } from '../generated/routes.ts';
import type { ToolContext } from './tools/context.ts';
import { ConfigError, loadConfig } from './config.ts';
import { importLegacyFiles, MAX_FILE_BYTES } from './figures/files.ts';
import type { FigureRenderer } from './figures/renderer.ts';
import { HoldReconciler, ProcessLease, createKey, createAccount } from './ledger/index.ts';
import { migrateToLatest, openDatabase } from './database/index.ts';
import { createLogger } from './logging.ts';
import { createApp } from './server/app.ts';
import { shutDown } from './server/shutdown.ts';
import { databaseFolder, showStarterKey } from './starter-key.ts';

const STARTER_CREDITS = 100;

async function createStarterAccount(db: Knex, config: { databaseUrl: string; port: number }, logger: Logger): Promise<void> {
  if (!config.databaseUrl.startsWith('sqlite:')) return;
  const existing = await db('accounts').count<Array<{ count: number | string }>>({ count: '*' });
  if (Number(existing[0]?.count ?? 0) > 0) return;
  const account = await createAccount(db, { name: 'local', credits: STARTER_CREDITS });
  const key = await createKey(db, account.id, 'starter key');
  showStarterKey(
    { accountId: account.id, credits: STARTER_CREDITS, key: key.key, port: config.port },
    { terminal: process.stderr, folder: databaseFolder(config.databaseUrl), logger },
  );
  logger.info({ account_id: account.id }, 'created the starter account');
}

/** Figure files an older version kept only in FILES_DIR go into the database, so every process serves them. */
async function moveLegacyFiles(db: Knex, filesDir: string | undefined, logger: Logger): Promise<void> {
  if (!filesDir) return;
  const { imported, tooLarge } = await importLegacyFiles(db, filesDir);
  if (imported.length > 0) logger.info({ files: imported.length, folder: filesDir }, 'moved figure files from FILES_DIR into the database');
  if (tooLarge.length > 0) logger.warn({ files: tooLarge }, `figure files over ${MAX_FILE_BYTES} bytes were left in FILES_DIR and are not served`);
}

/** Starts the server from the environment's configuration; tests and the benchmark pass their own handlers (and renderer). */
export async function startFromEnvironment(handlers?: ToolHandlers<ToolContext>, figureRenderer?: FigureRenderer): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // On SQLite the write-ahead log is checkpointed in a thread: the request loop does not wait for its copies and fsyncs.
  const db = openDatabase(config.databaseUrl, {
    walCheckpointThread: { onError: (message) => logger.warn({ error: message }, 'could not checkpoint the SQLite write-ahead log') },
  });
  await migrateToLatest(db);
  await moveLegacyFiles(db, config.filesDir, logger);
  await createStarterAccount(db, config, logger);
  // The lease this process's holds name: when it stops being renewed (a crash), any other process releases them.
  const lease = new ProcessLease(db, { timeoutMs: config.leaseTimeoutMs, renewMs: config.leaseRenewMs, logger });
  await lease.start();
  const app = await createApp({ db, config, logger, handlers, figureRenderer, lease });
  // Gives back credits held by calls that were never settled (a crashed process), now and periodically.
  const reconciler = new HoldReconciler(db, { holdTimeoutMs: config.holdTimeoutMs, intervalMs: config.holdSweepMs, logger });
  reconciler.start();
  // The port taken, or not ours to take: the process ends as on any other startup failure.
  const cannotListen = (error: Error): never => exitOnStartupFailure(new ConfigError(`PORT ${config.port} cannot be listened on: ${error.message}`));
  const server = app.listen(config.port, () => {
    server.off('error', cannotListen);
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ port, database: config.databaseUrl.split(':')[0] }, `listening on port ${port}`);
  });
  server.once('error', cannotListen);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ grace_ms: config.shutdownGraceMs }, 'stopping');
    shutDown({ server, app, db, reconciler, lease, graceMs: config.shutdownGraceMs, logger })
      .catch((error: unknown) => logger.error({ err: error }, 'unclean stop'))
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

export function exitOnStartupFailure(error: unknown): never {
  const message = error instanceof ConfigError ? error.message : ((error as Error).stack ?? String(error));
  process.stderr.write(`${JSON.stringify({ error: { code: 'startup_failed', message } })}\n`);
  process.exit(1);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  startFromEnvironment().catch(exitOnStartupFailure);
}
