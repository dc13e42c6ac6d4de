/**
 * Group commit: what is submitted for one key (an account, an API key) while a write for that key
 * is running is written together by the next one, so under load one short transaction serves many
 * calls, and alone a call waits for nothing but its own write (which starts on the next turn of the
 * event loop, to gather what arrives in the same turn, or after `gatherMs` where nobody waits for
 * the write). Writes of different keys run side by side.
 */

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/** At most this many items in one batch (one transaction, one statement's rows). */
export const MAX_BATCH = 64;

/** Writes the items of one key; resolves with one result per item, in order. A rejection fails every item of the batch. */
export type BatchWriter<Item, Result> = (key: string, items: Item[]) => Promise<Result[]>;

export interface GroupCommitOptions {
  /** At most this many items in one batch (MAX_BATCH). */
  maxBatch?: number;
  /** How long an idle key's first item waits for others before its write starts; 0 (the default): the next turn of the event loop. */
  gatherMs?: number;
  /**
   * Each following batch of a key starts on the next turn of the event loop, not at once: what the
   * callers just answered submit straight away (a charged call's capture after a quick tool, its
   * hold just admitted) then joins that batch instead of waiting for it to end.
   */
  yieldBetweenBatches?: boolean;
}

export class GroupCommit<Item, Result> {
  private readonly queues = new Map<string, Array<Waiting<Item, Result>>>();
  private readonly maxBatch: number;
  private readonly gatherMs: number;
  private readonly yieldBetweenBatches: boolean;

  constructor(
    private readonly write: BatchWriter<Item, Result>,
    options: GroupCommitOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? MAX_BATCH;
    this.gatherMs = options.gatherMs ?? 0;
    this.yieldBetweenBatches = options.yieldBetweenBatches ?? false;
  }

  submit(key: string, item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      // The key's queue exists while a batch of it is due or being written; its writer takes what arrives meanwhile.
      this.queues.set(key, [{ item, resolve, reject }]);
      if (this.gatherMs > 0) setTimeout(() => void this.writeBatches(key), this.gatherMs);
      else setImmediate(() => void this.writeBatches(key));
    });
  }

  private async writeBatches(key: string): Promise<void> {
    const queue = this.queues.get(key)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, this.maxBatch);
      try {
        const results = await this.write(
          key,
          batch.map((waiting) => waiting.item),
        );
        batch.forEach((waiting, index) => waiting.resolve(results[index]!));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
      if (this.yieldBetweenBatches && queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
    }
    this.queues.delete(key);
  }
}
