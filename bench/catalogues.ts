/**
 * Catalogues: the memory a loaded catalogue costs against its size on the wire, and how fast a
 * find_series search answers once it is loaded. The BLS catalogue (LABSTAT's ce, cu and ln series
 * lists) is served by a fake upstream on loopback and read through the real upstream client and
 * connector; the server's resident memory (after a full collection) is measured before and after.
 * Then `SEARCHES` searches hit the loaded catalogue and their p50/p95 are printed.
 *
 * By default the repository's recorded excerpts are served (small); `--catalogues <folder>` serves
 * the whole files `ce.series`, `cu.series` and `ln.series` from that folder instead (as downloaded
 * from BLS or from the public repositories named in test/recordings/bls/README.md).
 * The measuring runs in a process of its own started with the server's Node flags
 * (src/node-flags.ts: V8 sizes its young generation from them, which decides much of what stays
 * resident), and full collections are run before each memory figure.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { searchSeries } from '../src/connectors/bls.ts';
import { MemoryCache } from '../src/upstream/cache.ts';
import { UpstreamClient } from '../src/upstream/client.ts';
import { SERVER_NODE_FLAGS } from '../src/node-flags.ts';
import { startFakeUpstream } from '../test/support/fake-upstream.ts';

const SEARCHES = Number(process.env.BENCH_CATALOGUE_SEARCHES ?? 200);
const QUERIES = [
  'average hourly earnings of all employees',
  'unemployment rate',
  'consumer price index all items',
  'labor force level women',
  'inflation food',
];
const EXCERPTS: Record<string, string> = { ce: 'first-999', cu: 'first-100', ln: 'first-6' };

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const percentile = (values: number[], share: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Resident memory and live heap after full collections. */
function settled(): { rss: number; heap: number } {
  for (let round = 0; round < 3; round += 1) gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed + usage.external };
}

/** Runs the measuring in a child process with the server's Node flags. */
export async function runCataloguesBench(args: string[] = []): Promise<void> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url), ...args], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_CATALOGUES_CHILD: '1' },
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`the catalogues bench process ended with ${code}`);
}

async function measure(args: string[]): Promise<void> {
  const folderAt = args.indexOf('--catalogues');
  const folder = folderAt >= 0 ? args[folderAt + 1] : undefined;
  const bodies = Object.fromEntries(
    Object.keys(EXCERPTS).map((survey) => [
      survey,
      folder
        ? readFileSync(join(folder, `${survey}.series`), 'utf8')
        : readFileSync(new URL(`../test/recordings/bls/labstat-${survey}-series-${EXCERPTS[survey]}.tsv`, import.meta.url), 'utf8'),
    ]),
  );
  const wire = Object.values(bodies).reduce((sum, body) => sum + Buffer.byteLength(body), 0);
  const fake = await startFakeUpstream();
  for (const [survey, body] of Object.entries(bodies)) fake.on(`/bls/labstat/${survey}/${survey}.series`, { body, contentType: 'text/plain' });
  // The response cache is left out of the memory figure: with Redis it is not in the server's memory, and in memory it is bounded by its own limit.
  const upstream = new UpstreamClient({ sources: { BLS: { url: `${fake.url}/bls` } }, cache: new MemoryCache({ maxEntryBytes: 1 }) });
  const search = (query: string) => searchSeries(upstream, { query, topic: query, words: [], limit: 10 });

  const before = settled();
  const started = process.hrtime.bigint();
  const first = await search(QUERIES[0]!);
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  const after = settled();

  const timings: number[] = [];
  for (let round = 0; round < SEARCHES; round += 1) {
    const query = QUERIES[round % QUERIES.length]!;
    const at = process.hrtime.bigint();
    await search(query);
    timings.push(Number(process.hrtime.bigint() - at) / 1e6);
  }
  console.log(`catalogues: BLS series lists (ce, cu, ln) ${folder ? 'whole files' : 'recorded excerpts'}, ${mib(wire)} on the wire`);
  console.log(`  first search (reads and indexes them): ${loadMs.toFixed(0)} ms; first answer ${first.candidates[0]?.seriesId}`);
  const grew = (key: 'rss' | 'heap') => `grew ${mib(after[key] - before[key])} (${((after[key] - before[key]) / wire).toFixed(2)} x the wire size)`;
  console.log(`  resident memory: ${mib(before.rss)} before, ${mib(after.rss)} after: ${grew('rss')}`);
  console.log(`  live heap and buffers: ${grew('heap')}`);
  console.log(`  ${SEARCHES} searches on the loaded catalogue: p50 ${percentile(timings, 0.5).toFixed(2)} ms, p95 ${percentile(timings, 0.95).toFixed(2)} ms`);
  await upstream.close();
  await fake.close();
}

if (process.env.BENCH_CATALOGUES_CHILD === '1') await measure(process.argv.slice(2));
