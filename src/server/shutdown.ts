/**
 * A clean stop (SIGTERM, SIGINT): stop accepting connections, put the figures this process was
 * rendering back in the queue, let the calls in progress finish up to the grace period, release the
 * credits held by any call still running after it, then close the database.
 */
import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { FigureJobRunner } from '../figures/runner.ts';
import { releaseIfHeld, type HoldReconciler, type ProcessLease } from '../ledger/index.ts';
import type { InFlight } from './in-flight.ts';

export interface ShutdownParts {
  server: Server;
  app: Express;
  db: Knex;
  reconciler: HoldReconciler;
  lease?: ProcessLease;
  graceMs: number;
  logger: Logger;
}

export async function shutDown({ server, app, db, reconciler, lease, graceMs, logger }: ShutdownParts): Promise<void> {
  const deadline = Date.now() + graceMs;
  const inFlight = app.locals.inFlight as InFlight;
  server.close();
  // Requests still arriving on open connections are answered, then those connections close.
  server.on('request', (_request, response: { setHeader(name: string, value: string): void }) => response.setHeader('Connection', 'close'));
  server.closeIdleConnections();
  await Promise.all([(app.locals.figureRunner as FigureJobRunner).stop(), reconciler.stop()]);
  const finished = await inFlight.drain(deadline);
  const abandoned = finished ? [] : inFlight.openHolds();
  for (const held of abandoned) {
    await releaseIfHeld(db, held.callId).catch((error: unknown) =>
      logger.error({ err: error, call_id: held.callId }, 'could not release the credits of a call cut off by the shutdown; the reconciler will'),
    );
  }
  // What could not be released here is any other process's to release at once.
  await lease?.stop().catch((error: unknown) => logger.error({ err: error }, 'could not expire the lease of this process'));
  logger.info({ abandoned_calls: abandoned.length }, 'stopped');
  server.closeAllConnections();
  await db.destroy();
}
