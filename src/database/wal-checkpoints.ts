/**
 * Checkpoints of an SQLite file's write-ahead log in a thread of their own. better-sqlite3 runs
 * every statement on the thread that calls it, and SQLite's automatic checkpoint runs inside the
 * commit that crosses its threshold: copying the log into the database file and fsyncing both. On a
 * busy disk that held the server's event loop, and every request behind it, for up to hundreds of
 * milliseconds. With synchronous = NORMAL a commit itself does not fsync.
 *
 * A PASSIVE checkpoint waits for no reader or writer. Under steady load a commit lands while it
 * copies, so it rarely completes, and the log starts again from its beginning only after the
 * automatic checkpoint of the server's own connection (the safety net, WAL_SAFETY_NET_PAGES), which
 * copies what this thread has not yet copied and fsyncs the log and the database file on the
 * request loop. Those fsyncs write out whatever was not yet flushed, so this thread checkpoints
 * often and flushes the database file after copying: the request loop's syncs find little left.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export const WAL_CHECKPOINT_INTERVAL_MS = 25;
/** About 40 MB of log with SQLite's 4 KB pages (SQLite's own default is 1000 pages). */
export const WAL_SAFETY_NET_PAGES = 10_000;

/** What one checkpoint did: log frames in the log, and how many of them are now in the database file. */
export interface CheckpointResult {
  busy: boolean;
  logFrames: number;
  checkpointedFrames: number;
}

export interface WalCheckpointOptions {
  intervalMs?: number;
  /** Told after every checkpoint (tests watch the thread work through it). */
  onCheckpoint?(result: CheckpointResult): void;
  /** Told when a checkpoint fails for another reason than another process checkpointing at the same moment. */
  onError?(message: string): void;
}

// Plain JavaScript run as the thread's script: no loader is needed, under tsx or from a bundle.
const THREAD_SCRIPT = `
const { parentPort, workerData } = require('node:worker_threads');
const { fdatasyncSync, openSync } = require('node:fs');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
// Never closed: closing any descriptor of the file would drop the process's POSIX locks on it, SQLite's own included.
const databaseFile = openSync(workerData.filename, 'r+');
let last = { log: 0, checkpointed: 0 };
setInterval(() => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    // Pages copied into the database file are flushed here, not by the request loop's next sync of it.
    if (row.checkpointed > 0 && (row.log !== last.log || row.checkpointed !== last.checkpointed)) fdatasyncSync(databaseFile);
    last = { log: row.log, checkpointed: row.checkpointed };
    if (workerData.report) parentPort.postMessage({ busy: row.busy === 1, logFrames: row.log, checkpointedFrames: row.checkpointed });
  } catch (error) {
    // SQLITE_BUSY: another connection (another server process) is checkpointing; the next turn catches up.
    if (error.code !== 'SQLITE_BUSY') parentPort.postMessage({ error: String(error.message) });
  }
}, workerData.intervalMs);
`;

export interface WalCheckpoints {
  stop(): Promise<void>;
}

/** Starts checkpointing the write-ahead log of the SQLite file `filename` every `intervalMs`; the thread never keeps the process alive. */
export function startWalCheckpoints(filename: string, options: WalCheckpointOptions = {}): WalCheckpoints {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD_SCRIPT, {
    eval: true,
    workerData: { driver, filename, intervalMs: options.intervalMs ?? WAL_CHECKPOINT_INTERVAL_MS, report: options.onCheckpoint !== undefined },
  });
  worker.unref();
  worker.on('message', (message: CheckpointResult | { error: string }) => {
    if ('error' in message) options.onError?.(message.error);
    else options.onCheckpoint?.(message);
  });
  worker.on('error', (error) => options.onError?.(error.message));
  return {
    async stop() {
      await worker.terminate();
    },
  };
}
