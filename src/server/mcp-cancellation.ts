/**
 * The tools/call requests running in this process, so that a 2025-era client's
 * `notifications/cancelled` reaches the call it names. Such a client sends the notification as a
 * POST of its own, which a stateless server answers with a new server instance that knows nothing
 * of the running call; this registry is what joins the two. (A 2026-07-28 client cancels by closing
 * the call's stream, which ends the call without it.)
 *
 * A request id is only unique within one client's connection, so a call is known by its owner
 * (the key and the client's address) and its id; a cancellation from another key never matches.
 */
export type RequestId = string | number;

export class RunningCalls {
  private readonly calls = new Map<string, Set<() => void>>();

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

  /** Cancels the owner's running calls with this request id; how many there were. */
  cancel(owner: string, requestId: RequestId): number {
    const cancels = this.calls.get(RunningCalls.nameOf(owner, requestId));
    if (!cancels) return 0;
    const found = [...cancels];
    for (const cancel of found) cancel();
    return found.length;
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
