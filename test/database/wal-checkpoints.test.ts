import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openDatabase } from '../../src/database/index.ts';
import { WAL_SAFETY_NET_PAGES, type CheckpointResult } from '../../src/database/wal-checkpoints.ts';

/** Resolves with the first checkpoint result that `wanted` accepts. */
function checkpointWatcher(): { onCheckpoint(result: CheckpointResult): void; next(wanted: (result: CheckpointResult) => boolean): Promise<CheckpointResult> } {
  let waiting: { wanted: (result: CheckpointResult) => boolean; resolve: (result: CheckpointResult) => void } | undefined;
  return {
    onCheckpoint(result) {
      if (waiting?.wanted(result)) {
        waiting.resolve(result);
        waiting = undefined;
      }
    },
    next: (wanted) => new Promise((resolve) => (waiting = { wanted, resolve })),
  };
}

/**
 * Writes `count` rows in one transaction. Written one commit at a time, a busy machine leaves the
 * thread time to copy the whole log between two commits, and the next commit starts the log again:
 * it would never reach the size the test waits for.
 */
async function writeRows(db: Knex, count: number): Promise<void> {
  await db.transaction(async (trx) => {
    for (let index = 0; index < count; index += 1) await trx('notes').insert({ text: 'x'.repeat(2000) });
  });
}

describe('SQLite write-ahead log checkpoints in a thread of their own', function () {
  let folder: string;
  before(function () {
    folder = mkdtempSync(path.join(os.tmpdir(), 'research-tools-wal-'));
  });
  after(function () {
    rmSync(folder, { recursive: true, force: true });
  });

  it('leave the automatic checkpoint to the pool when not asked for', async function () {
    const db = openDatabase(`sqlite:${path.join(folder, 'inline.sqlite')}`);
    try {
      expect(await db.raw('pragma wal_autocheckpoint')).to.deep.equal([{ wal_autocheckpoint: 1000 }]);
    } finally {
      await db.destroy();
    }
  });

  it('copy what the pool commits into the database file, so that the next write starts the log again', async function () {
    const watcher = checkpointWatcher();
    const errors: string[] = [];
    const db = openDatabase(`sqlite:${path.join(folder, 'thread.sqlite')}`, {
      walCheckpointThread: { intervalMs: 5, onCheckpoint: watcher.onCheckpoint, onError: (message) => errors.push(message) },
    });
    try {
      // The pool's own connection checkpoints only past the safety net, far beyond what this test writes.
      expect(await db.raw('pragma wal_autocheckpoint')).to.deep.equal([{ wal_autocheckpoint: WAL_SAFETY_NET_PAGES }]);
      await db.schema.createTable('notes', (table) => {
        table.increments('id');
        table.text('text');
      });
      await writeRows(db, 200);
      // 200 rows of 2,000 bytes fill at least 100 pages of 4 KB, each one frame of the log.
      const copied = await watcher.next((result) => result.logFrames >= 100 && result.checkpointedFrames === result.logFrames);
      expect(copied.busy).to.equal(false);

      await writeRows(db, 1);
      const restarted = await watcher.next((result) => result.logFrames < copied.logFrames);
      expect(restarted.logFrames).to.be.below(10);
      expect(await db('notes').count({ rows: '*' })).to.deep.equal([{ rows: 201 }]);
      expect(errors).to.deep.equal([]);
    } finally {
      await db.destroy();
    }
  });
});
