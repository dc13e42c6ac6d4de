/**
 * The figures' part of the HTTP server: the route serving image files, and the background runner
 * that starts when the app starts listening and stops when its server closes.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Express, RequestHandler } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { FILE_NAME, FileStore, MIME_TYPES } from './files.ts';
import type { FigureRenderer } from './renderer.ts';
import { FigureJobRunner } from './runner.ts';
import { WorkerThreadRenderer } from './worker-renderer.ts';

/** GET /files/<token>.<png|svg>: the image with its media type, cached for good (a file never changes). */
export function fileHandler(files: FileStore): RequestHandler {
  return async (request, response) => {
    const name = String(request.params.name);
    const match = FILE_NAME.exec(name);
    const file = files.pathOf(name);
    const notFound = new ApiError('not_found', `no file named "${name}"`);
    if (!match || !file) throw notFound;
    try {
      const info = await stat(file);
      if (!info.isFile()) throw notFound;
      response.set({
        'Content-Type': MIME_TYPES[match[2] as 'png' | 'svg'],
        'Content-Length': String(info.size),
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      });
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw notFound;
    }
    await new Promise<void>((resolve, reject) => {
      const stream = createReadStream(file);
      stream.once('error', reject);
      response.once('finish', resolve);
      response.once('close', resolve);
      stream.pipe(response);
    });
  };
}

/** Creates the runner and ties it to the app: started by app.listen, stopped when that server closes. */
export function attachFigureRunner(app: Express, deps: { db: Knex; config: Config; logger: Logger; renderer?: FigureRenderer; files: FileStore }): FigureJobRunner {
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
  return runner;
}
