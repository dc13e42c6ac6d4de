/** How long work holds the event loop, for the benches that compare reading a large answer as it streams with parsing it whole. */

/** The longest pause of the event loop while `work` runs (a timer asked to fire every millisecond). */
export async function longestPause(work: () => unknown): Promise<number> {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  last = performance.now();
  await work();
  longest = Math.max(longest, performance.now() - last);
  clearInterval(timer);
  return longest;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
