/**
 * The tools/call requests running in this process, so that a 2025-era client's
 * `notifications/cancelled` reaches the call it names. Such a client sends the notification as a
 * POST of its own, which a stateless server answers with a new server instance that knows nothing
 * of the running call; this registry is what joins the two. With several server processes the POST
 * may reach another one: with REDIS_URL set, every cancellation is also published in Redis, and
 * each process cancels the calls it runs under that name. (A 2026-07-28 client cancels by closing
 * the call's own stream, which always reaches the process running it.)
 *
 * A request id is only unique within one client's connection, so a call is known by its owner
 * (the key and the client's address) and its id; a cancellation from another key never matches.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export type RequestId = string | number;

/** Where cancellations are told to the other processes. */
export interface CancellationChannel {
  publish(owner: string, requestId: RequestId): void;
}

export class RunningCalls {
  private readonly calls = new Map<string, Set<() => void>>();
  private channel: CancellationChannel | undefined;

  /** Registers a running call; `cancel` ends it. Returns the function that forgets it (when it has ended). */
  add(owner: string, requestId: RequestId, cancel: () => void): () => void {
    const name = RunningCalls.nameOf(owner, requestId);
    let cancels = this.calls.get(name);
    if (!cancels) this.calls.set(name, (cancels = new Set()));
    cancels.add(cancel);
    return () => {
      cancels.delete(cancel);
      if (cancels.size === 0 && this.calls.get(name) === cancels) this.calls.delete(name);
    };
  }

  /** Cancels the owner's calls with this request id, here and (through the channel) in the other processes. */
  cancel(owner: string, requestId: RequestId): void {
    this.cancelHere(owner, requestId);
    this.channel?.publish(owner, requestId);
  }

  /** Cancels the owner's calls with this request id running in this process; how many there were. */
  cancelHere(owner: string, requestId: RequestId): number {
    const cancels = this.calls.get(RunningCalls.nameOf(owner, requestId));
    if (!cancels) return 0;
    const found = [...cancels];
    for (const cancel of found) cancel();
    return found.length;
  }

  /** Tells cancellations to the other processes through `channel` (and hears theirs through it). */
  share(channel: CancellationChannel): void {
    this.channel = channel;
  }

  /** Calls running now (for tests and shutdown logs). */
  get size(): number {
    let size = 0;
    for (const cancels of this.calls.values()) size += cancels.size;
    return size;
  }

  private static nameOf(owner: string, requestId: RequestId): string {
    // A string id "1" and a number id 1 are different requests.
    return `${owner}\n${JSON.stringify(requestId)}`;
  }
}

const CHANNEL = 'research-tools:mcp:cancelled';

interface Published {
  from: string;
  owner: string;
  requestId: RequestId;
}

/**
 * The Redis channel of cancellations: one connection publishes, one listens. A message a process
 * published itself is ignored (it has cancelled its own calls already). While Redis is away a
 * cancellation reaches only the process it was sent to.
 */
export function shareCancellationsInRedis(running: RunningCalls, redisUrl: string, logger: Logger): void {
  const self = randomUUID();
  const options = { maxRetriesPerRequest: 1, connectTimeout: 2000 };
  const publisher = new Redis(redisUrl, { ...options, enableOfflineQueue: false });
  const listener = new Redis(redisUrl, options);
  publisher.on('error', () => undefined); // a failed publish is logged where it happens
  listener.on('error', (error: Error) => logger.warn({ err: error.message }, 'MCP cancellations: Redis error'));
  listener.subscribe(CHANNEL).catch((error: unknown) => logger.warn({ err: error }, 'MCP cancellations: could not listen in Redis'));
  listener.on('message', (_channel: string, text: string) => {
    try {
      const message = JSON.parse(text) as Published;
      if (message.from !== self) running.cancelHere(message.owner, message.requestId);
    } catch {
      logger.warn('MCP cancellations: a message in Redis that is not one');
    }
  });
  running.share({
    publish: (owner, requestId) => {
      publisher
        .publish(CHANNEL, JSON.stringify({ from: self, owner, requestId } satisfies Published))
        .catch((error: unknown) => logger.warn({ err: error }, 'MCP cancellations: could not tell the other processes'));
    },
  });
}
