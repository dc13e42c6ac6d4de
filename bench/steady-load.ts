/**
 * One round of requests at a steady rate, run in a process of its own (server-overhead.ts starts
 * one per round): the load generator's timing then does not depend on what the benchmark's own
 * process did before (its earlier loads, its heap). Reads its round as JSON from argv, prints
 * `{ latencies, non2xx }` as JSON on stdout.
 *
 * A request is due every 1/rate seconds whether or not the earlier ones have been answered, over
 * `connections` keep-alive connections (undici's Pool queues what finds them busy), and each latency
 * counts from when its request was due, so a stall is not hidden by the requests it kept from being
 * sent. (autocannon's rate option sends each connection's quota for the second in one burst and then
 * waits: its p99 is that of full load.) A 1-second warm-up comes first.
 */
import { Pool } from 'undici';

export interface SteadyRound {
  baseUrl: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  rate: number;
  seconds: number;
  connections: number;
}

async function steadyRound(round: SteadyRound): Promise<{ latencies: number[]; non2xx: number }> {
  const pool = new Pool(round.baseUrl, { connections: round.connections });
  const request = { path: round.path, method: 'POST' as const, headers: round.headers, body: round.body };
  const run = async (seconds: number): Promise<{ latencies: number[]; non2xx: number }> => {
    const latencies: number[] = [];
    let non2xx = 0;
    const sent: Array<Promise<void>> = [];
    const started = performance.now();
    const total = Math.round(round.rate * seconds);
    while (sent.length < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) * round.rate) / 1000) + 1);
      while (sent.length < due) {
        const dueAt = started + (sent.length * 1000) / round.rate;
        sent.push(
          pool.request(request).then(async (answer) => {
            await answer.body.dump();
            if (answer.statusCode >= 300) non2xx += 1;
            latencies.push(performance.now() - dueAt);
          }),
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(sent);
    return { latencies, non2xx };
  };
  try {
    await run(1); // warm-up
    return await run(round.seconds);
  } finally {
    await pool.close();
  }
}

process.stdout.write(JSON.stringify(await steadyRound(JSON.parse(process.argv[2]!) as SteadyRound)));
