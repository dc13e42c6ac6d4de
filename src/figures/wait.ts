/** Waiting for a queued figure to be finished or failed, for at most a given time. */
import type { Knex } from 'knex';
import type { FigureJobRunner } from './runner.ts';
import { readFigure, type FigureRow } from './store.ts';

const SETTLED = new Set(['finished', 'failed']);

/** The figure once finished or failed, or as it stands after `waitMs`; `onStatus` hears its status when first read and at each change. */
export async function waitForFigure(
  db: Knex,
  id: string,
  waitMs: number,
  runner?: FigureJobRunner,
  onStatus?: (status: FigureRow['status']) => void,
): Promise<FigureRow> {
  let figure = (await readFigure(db, id))!;
  let told = figure.status;
  onStatus?.(told);
  if (waitMs <= 0 || SETTLED.has(figure.status)) return figure;
  const deadline = Date.now() + waitMs;
  while (!SETTLED.has(figure.status) && Date.now() < deadline) {
    // Woken at once when this process renders it; otherwise the database is looked at every 200 ms.
    await new Promise<void>((resolve) => {
      const onSettled = (settledId: string): void => {
        if (settledId === id) finish();
      };
      const finish = (): void => {
        clearTimeout(timer);
        runner?.off('settled', onSettled);
        resolve();
      };
      const timer = setTimeout(finish, Math.min(200, Math.max(1, deadline - Date.now())));
      runner?.on('settled', onSettled);
    });
    figure = (await readFigure(db, id))!;
    if (figure.status !== told) onStatus?.((told = figure.status));
  }
  return figure;
}
