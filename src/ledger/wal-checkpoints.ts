/**
 * Checkpoints of an SQLite file's write-ahead log in a thread of their own. better-sqlite3 runs
 * every statement on the thread that calls it, and SQLite's automatic checkpoint runs inside the
 * commit that crosses its threshold: copying the log into the database file and fsyncing both. On a
 * busy disk that held the server's event loop, and every request behind it, for up to hundreds of
 * milliseconds. With synchronous = NORMAL a commit itself does not fsync; what is left on the
 * request loop is the one sync of the log's header when a writer starts the log again.
 *
 * A PASSIVE checkpoint waits for no reader or writer; the next writer after a complete one starts
 * the log from its beginning again, so it stays small. The server's own connections keep SQLite's
 * automatic checkpoint as a safety net, at a threshold (WAL_SAFETY_NET_PAGES) this thread keeps the
 * log far below unless it stops working.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export const WAL_CHECKPOINT_INTERVAL_MS = 250;
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
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { fileMustExist: true });
setInterval(() => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ busy: row.busy === 1, logFrames: row.log, checkpointedFrames: row.checkpointed });
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
  const worker = new Worker(THREAD_SCRIPT, { eval: true, workerData: { driver, filename, intervalMs: options.intervalMs ?? WAL_CHECKPOINT_INTERVAL_MS } });
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
