/**
 * For changes that other processes see within a stated bound (a deleted key, a switched pack: within
 * KEY_CACHE_MS): asks again every 25 ms until `check` gives what `done` wants. The give-up time only
 * keeps a broken build from hanging; the bound itself is proven with a fake clock (key-cache.test.ts).
 */
export async function eventually<T>(check: () => Promise<T>, done: (value: T) => boolean, giveUpMs = 10_000): Promise<T> {
  const giveUpAt = Date.now() + giveUpMs;
  for (;;) {
    const value = await check();
    if (done(value) || Date.now() > giveUpAt) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
