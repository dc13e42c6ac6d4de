/**
 * Runs the built-in renderer in worker threads: layout, drawing and PNG encoding happen off the
 * request loop. One thread per concurrent render; a render that takes longer than the time limit
 * ends its thread (a fresh one replaces it) and fails.
 */
import { Worker } from 'node:worker_threads';
import type { FigureSpec } from './model.ts';
import type { FigureRenderer, RenderedFigure } from './renderer.ts';

const WORKER_ENTRY = new URL('./render-worker.ts', import.meta.url);

export class RenderTimeoutError extends Error {}

interface Slot {
  worker: Worker;
  busy: boolean;
}

export class WorkerThreadRenderer implements FigureRenderer {
  private readonly slots: Slot[] = [];
  private readonly waiting: Array<(slot: Slot) => void> = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: { threads: number; timeoutMs?: number }) {}

  private spawn(): Slot {
    // Run from TypeScript sources, the thread registers tsx's loader before importing the worker module.
    const entry = JSON.stringify(WORKER_ENTRY.href);
    const bootstrap = WORKER_ENTRY.pathname.endsWith('.ts')
      ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${entry}); })`
      : `import(${entry})`;
    const worker = new Worker(bootstrap, { eval: true });
    worker.unref();
    return { worker, busy: false };
  }

  private acquire(): Promise<Slot> {
    const free = this.slots.find((slot) => !slot.busy);
    if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    if (this.slots.length < Math.max(1, this.options.threads)) {
      const slot = this.spawn();
      slot.busy = true;
      this.slots.push(slot);
      return Promise.resolve(slot);
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private releaseSlot(slot: Slot, broken: boolean): void {
    if (broken) {
      void slot.worker.terminate();
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      if (this.waiting.length > 0 && !this.closed) {
        const fresh = this.spawn();
        fresh.busy = true;
        this.slots.push(fresh);
        this.waiting.shift()!(fresh);
      }
      return;
    }
    const next = this.waiting.shift();
    if (next) next(slot);
    else slot.busy = false;
  }

  async render(spec: FigureSpec): Promise<RenderedFigure> {
    if (this.closed) throw new Error('the renderer is closed');
    const slot = await this.acquire();
    const id = this.nextId++;
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    return new Promise<RenderedFigure>((resolve, reject) => {
      const done = (broken: boolean): void => {
        clearTimeout(timer);
        slot.worker.off('message', onMessage);
        slot.worker.off('error', onError);
        slot.worker.off('exit', onExit);
        this.releaseSlot(slot, broken);
      };
      const onMessage = (message: { id: number; ok: boolean; png?: ArrayBuffer; svg?: string; width?: number; height?: number; error?: string }): void => {
        if (message.id !== id) return;
        done(false);
        if (!message.ok) return reject(new Error(message.error ?? 'rendering failed'));
        resolve({ png: Buffer.from(message.png!), svg: message.svg, width: message.width!, height: message.height! });
      };
      const onError = (error: Error): void => {
        done(true);
        reject(error);
      };
      const onExit = (code: number): void => {
        done(true);
        reject(new Error(`the render thread stopped (exit code ${code})`));
      };
      const timer = setTimeout(() => {
        done(true);
        reject(new RenderTimeoutError(`rendering took longer than ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      timer.unref();
      slot.worker.on('message', onMessage);
      slot.worker.once('error', onError);
      slot.worker.once('exit', onExit);
      slot.worker.postMessage({ id, spec });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }
}
