/**
 * The figures' part of the HTTP server: the route serving image files, and the background runner
 * that starts when the app starts listening and stops when its server closes.
 */
import type { Express, RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { metrics } from '../metrics.ts';
import type { FileStore } from './files.ts';
import type { FigureRenderer } from './renderer.ts';
import { FigureJobRunner } from './runner.ts';
import { WorkerThreadRenderer } from './worker-renderer.ts';

/**
 * GET (and HEAD) /files/<token>.<png|svg>: the image with its media type and length, from any
 * process (the bytes are in the database). A name never changes its bytes, so the answer is cached
 * for good and the name itself is the entity tag.
 */
export function fileHandler(files: FileStore): RequestHandler {
  return async (request, response) => {
    const name = String(request.params.name);
    const file = await files.read(name);
    if (!file) throw new ApiError('not_found', `no file named "${name}"`);
    const etag = `"${name}"`;
    response.set({
      'Content-Type': file.mimeType,
      'Cache-Control': 'public, max-age=31536000, immutable',
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      // Figures are meant to be shown on other sites' pages too.
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    if (
      request
        .get('if-none-match')
        ?.split(',')
        .some((tag) => tag.trim() === etag || tag.trim() === '*')
    ) {
      response.status(304).end();
      return;
    }
    response.set('Content-Length', String(file.content.length));
    response.status(200).end(request.method === 'HEAD' ? undefined : file.content);
  };
}

/** Creates the runner and ties it to the app: started by app.listen, stopped when that server closes. */
export function attachFigureRunner(
  app: Express,
  deps: { db: Knex; config: Config; logger: Logger; renderer?: FigureRenderer; files: FileStore },
): FigureJobRunner {
  const runner = new FigureJobRunner({
    db: deps.db,
    files: deps.files,
    logger: deps.logger.child({ component: 'figures' }),
    renderer: deps.renderer ?? new WorkerThreadRenderer({ threads: Math.max(1, deps.config.figureWorkers) }),
    concurrency: deps.config.figureWorkers,
    queue: deps.config.figureQueue,
  });
  const listen = app.listen.bind(app) as (...args: unknown[]) => ReturnType<Express['listen']>;
  app.listen = ((...args: unknown[]) => {
    const server = listen(...args);
    runner.start();
    server.once('close', () => void runner.stop());
    return server;
  }) as Express['listen'];
  app.locals.figureRunner = runner;
  metrics.setFigureQueueDepth(async () => {
    const row = await deps.db('figures').where({ queue: deps.config.figureQueue, status: 'pending' }).count({ count: '*' }).first();
    return Number(row?.count ?? 0);
  });
  return runner;
}
