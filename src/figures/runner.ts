/**
 * The background side of figures: claims queued figures from the database, renders them with the
 * renderer (worker threads by default), stores the files and marks them finished (capturing the
 * held credits, in one transaction) or failed (releasing them). Every process sharing the database runs one; they
 * split the queue through row claims. It is woken at once for figures queued in this process and
 * polls for the rest, including claims left behind by a process that died.
 */
import { EventEmitter } from 'node:events';
import { randomBase62 } from '../database/ids.ts';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { FigureFile, FileStore } from './files.ts';
import type { FigureRenderer } from './renderer.ts';
import { claimNext, failFigure, finishFigure, returnFigure, type FigureRow } from './store.ts';
import { newFileToken } from './files.ts';
import { metrics } from '../metrics.ts';

export interface RunnerOptions {
  db: Knex;
  renderer: FigureRenderer;
  files: FileStore;
  logger: Logger;
  /** Figures rendered at once by this process; 0 renders none. */
  concurrency: number;
  /** The queue figures are taken from. */
  queue: string;
  pollMs?: number;
  leaseMs?: number;
  maxAttempts?: number;
}

export const DEFAULT_LEASE_MS = 120_000;

export class FigureJobRunner extends EventEmitter {
  readonly owner = `${process.pid}-${randomBase62(6)}`;
  private readonly active = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private pumping: Promise<void> | undefined;
  private again = false;
  private stopping: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: RunnerOptions) {
    super();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.options.concurrency <= 0) return;
    this.timer = setInterval(() => this.wake(), this.options.pollMs ?? 1000);
    this.timer.unref();
    this.wake();
  }

  /** Looks for work now (a figure was just queued). */
  wake(): void {
    if (!this.running || this.options.concurrency <= 0) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async pump(): Promise<void> {
    while (this.running && this.active.size < this.options.concurrency) {
      let figure: FigureRow | undefined;
      try {
        figure = await claimNext(this.options.db, {
          owner: this.owner,
          queue: this.options.queue,
          leaseMs: this.options.leaseMs ?? DEFAULT_LEASE_MS,
          maxAttempts: this.options.maxAttempts ?? 3,
        });
      } catch (error) {
        if (this.running) this.options.logger.error({ err: error }, 'could not claim a figure');
        return;
      }
      if (!figure) return;
      if (!this.running) {
        // Stopped while claiming: the claim goes straight back.
        await returnFigure(this.options.db, figure.id, figure.claimedBy!).catch(() => undefined);
        return;
      }
      this.active.set(figure.id, figure.claimedBy!);
      const job = this.render(figure).finally(() => {
        this.active.delete(figure.id);
        this.inFlight.delete(job);
        this.wake();
      });
      this.inFlight.add(job);
    }
  }

  private async render(figure: FigureRow): Promise<void> {
    const { db, renderer, files, logger } = this.options;
    const token = figure.claimedBy!;
    const started = Date.now();
    try {
      const image = await renderer.render(figure.spec);
      if (!this.running) return;
      const fileToken = newFileToken();
      const imageFiles: FigureFile[] = [{ name: `${fileToken}.png`, content: image.png }];
      if (image.svg !== undefined) imageFiles.push({ name: `${fileToken}.svg`, content: Buffer.from(image.svg) });
      const finished = await finishFigure(db, figure.id, token, { fileToken, width: image.width, height: image.height, files: imageFiles });
      if (finished) await Promise.all(imageFiles.map((file) => files.writeCache(file))).catch(() => undefined);
      metrics.figureRendered('finished', (Date.now() - started) / 1000);
      logger.info({ figure_id: figure.id, duration_ms: Date.now() - started, rendered_by: this.owner, finished }, 'figure rendered');
    } catch (error) {
      if (!this.running) return;
      const message = error instanceof Error ? error.message : String(error);
      metrics.figureRendered('failed', (Date.now() - started) / 1000);
      logger.warn({ figure_id: figure.id, error: message }, 'figure rendering failed');
      await failFigure(db, figure.id, token, `the image could not be rendered: ${message}`).catch((failure: unknown) =>
        logger.error({ err: failure, figure_id: figure.id }, 'could not mark the figure failed'),
      );
    } finally {
      this.emit('settled', figure.id);
    }
  }

  /** Stops claiming; figures being rendered are put back in the queue for the next process. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.running = false;
      if (this.timer) clearInterval(this.timer);
      await this.pumping;
      const claims = [...this.active.entries()];
      await Promise.all(claims.map(([id, token]) => returnFigure(this.options.db, id, token).catch(() => undefined)));
      await this.options.renderer.close?.();
      await Promise.allSettled([...this.inFlight]);
    })();
    return this.stopping;
  }
}
