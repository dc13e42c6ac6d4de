/**
 * Catalogues: the memory a loaded catalogue costs against its size on the wire, and how fast a
 * find_series search answers once it is loaded. The BLS catalogue (LABSTAT's ce, cu and ln series
 * lists) is served by a fake upstream on loopback in this process and read, in a second process
 * that plays the server, through the real upstream client and connector; that process's resident
 * memory (after full collections) is measured before and after the first search, from three
 * baselines (docs/benchmarks.md): the young generation grown to its cap; then a server that has
 * served before (a small list read, the search's code run once on a small catalogue); then the
 * lists also downloaded once. Then `SEARCHES` searches hit the loaded
 * catalogue and their p50/p95 are printed with the load average, and each query's first answers.
 *
 * By default the repository's recorded excerpts are served (small); `--catalogues <folder>` serves
 * the whole files `ce.series`, `cu.series` and `ln.series` from that folder instead (as downloaded
 * from BLS or from the public repositories named in test/recordings/bls/README.md). With
 * `--dataflows <file>` (OECD's dataflow list, SDMX-ML) and `--data-json <file>` (Census's dataset
 * catalogue) those catalogues are loaded too, after the BLS lists, and counted in the size on the
 * wire and in what grew.
 * The measuring process is started with the server's Node flags (src/node-flags.ts: V8 sizes its
 * young generation from them, which decides much of what stays resident).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { searchSeries } from '../src/connectors/bls.ts';
import { datasetList } from '../src/connectors/census-catalogue.ts';
import { dataflowList } from '../src/connectors/oecd-catalogue.ts';
import { PRESET_WORDS } from '../src/connectors/oecd.ts';
import { readSeriesList } from '../src/connectors/bls-catalogue.ts';
import { CatalogueIndex } from '../src/statistics/catalogue-index.ts';
import { MemoryCache } from '../src/upstream/cache.ts';
import { UpstreamClient } from '../src/upstream/client.ts';
import { HostGroupLimiter } from '../src/upstream/limits.ts';
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
const gc = runInNewContext('gc') as (options?: { type: 'major'; execution: 'sync'; flavor?: 'regular' | 'last-resort' }) => void;

/**
 * With `--releasing`, the full collections are V8's memory-reducing ones (as it runs itself when the
 * process is idle): the free pages V8 keeps for reuse and the young generation's unused half are
 * given back, so the figure is what is held, not what was touched. Without, plain full collections.
 */
const RELEASING = process.env.BENCH_CATALOGUES_RELEASING === '1';

/** V8 frees what a collection found dead on other threads, a little later: a figure read at once still counts part of it. */
const SWEEPING_MS = 300;

/** Resident memory and live heap after full collections, each followed by a pause for V8's concurrent sweeping. */
async function settled(): Promise<{ rss: number; heap: number; committed: number; malloc: number }> {
  for (let round = 0; round < 3; round += 1) {
    gc(RELEASING ? { type: 'major', execution: 'sync', flavor: 'last-resort' } : undefined);
    await new Promise((resolve) => setTimeout(resolve, SWEEPING_MS));
  }
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapUsed + usage.external, committed: usage.heapTotal, malloc: mallocArena() };
}

/** Resident memory of the C allocator's main arena (Linux: the `[heap]` mapping), where SQLite's memory is. */
function mallocArena(): number {
  const smaps = readFileSync('/proc/self/smaps', 'utf8');
  const at = smaps.search(/ \[heap\]\n/);
  return at < 0 ? 0 : Number(/Rss:\s+(\d+) kB/.exec(smaps.slice(at))![1]) * 1024;
}

/** The young generation's size now. */
const youngGeneration = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/**
 * Grows the young generation to its cap by allocating short-lived objects, as a server under load
 * has it: the memory V8 takes for it is then in the baseline, and what grows after is what the
 * catalogue keeps (else reading the lists grows the young generation, about 30 MB of resident
 * memory a loaded server holds anyway).
 */
function warmYoungGeneration(): void {
  const ring: unknown[] = new Array(1 << 16);
  for (let round = 0; round < 20_000_000; round += 1) ring[round & 0xffff] = { round, text: `garbage ${round}` };
  ring.fill(undefined);
}

/**
 * Serves the lists from this process and runs the measuring in a child process with the server's
 * Node flags: the child is the server, and the memory the fake upstream takes to send the lists is
 * not in its figure.
 */
export async function runCataloguesBench(args: string[] = []): Promise<void> {
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
  const fileOf = (option: string) => (args.includes(option) ? args[args.indexOf(option) + 1] : undefined);
  const others = {
    oecd: fileOf('--dataflows') && readFileSync(fileOf('--dataflows')!, 'utf8'),
    census: fileOf('--data-json') && readFileSync(fileOf('--data-json')!, 'utf8'),
  };
  const wire = [...Object.values(bodies), others.oecd ?? '', others.census ?? ''].reduce((sum, body) => sum + Buffer.byteLength(body), 0);
  const fake = await startFakeUpstream();
  for (const [survey, body] of Object.entries(bodies)) fake.on(`/bls/labstat/${survey}/${survey}.series`, { body, contentType: 'text/plain' });
  if (others.oecd) fake.on(OECD_LIST, { body: others.oecd, contentType: 'application/vnd.sdmx.structure+xml; version=2.1' });
  if (others.census) fake.on(CENSUS_CATALOGUE, { body: others.census, contentType: 'application/json' });
  // A small answer for the second baseline: the recorded ln excerpt.
  fake.on('/bls/labstat/small.series', {
    body: readFileSync(new URL('../test/recordings/bls/labstat-ln-series-first-6.tsv', import.meta.url), 'utf8'),
    contentType: 'text/plain',
  });
  try {
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, '--import', 'tsx', fileURLToPath(import.meta.url)], {
      stdio: 'inherit',
      env: {
        ...process.env,
        BENCH_CATALOGUES_CHILD: '1',
        BENCH_CATALOGUES_UPSTREAM: fake.url,
        BENCH_CATALOGUES_WIRE: String(wire),
        BENCH_CATALOGUES_LISTS: [
          `BLS series lists (ce, cu, ln), ${folder ? 'whole files' : 'recorded excerpts'}`,
          ...(others.oecd ? [`OECD's dataflow list (${mib(Buffer.byteLength(others.oecd))})`] : []),
          ...(others.census ? [`Census's data.json (${mib(Buffer.byteLength(others.census))})`] : []),
        ].join(', '),
        BENCH_CATALOGUES_OTHERS: Object.keys(others)
          .filter((name) => others[name as keyof typeof others])
          .join(','),
        BENCH_CATALOGUES_RELEASING: args.includes('--releasing') ? '1' : '0',
      },
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`the catalogues bench process ended with ${code}`);
  } finally {
    await fake.close();
  }
}

const OECD_LIST = '/oecd/dataflow/all/all/latest';
const CENSUS_CATALOGUE = '/census.json';

async function measure(): Promise<void> {
  const wire = Number(process.env.BENCH_CATALOGUES_WIRE);
  const fakeUrl = process.env.BENCH_CATALOGUES_UPSTREAM!;
  const address = `${fakeUrl}/bls`;
  const others = new Set((process.env.BENCH_CATALOGUES_OTHERS ?? '').split(',').filter(Boolean));
  // The server's own response cache, as without Redis: a catalogue read whole is never kept in it (src/upstream/cache.ts). The
  // sources' pace would only make the bench wait (OECD's: a request every 3 s): the fake upstream is asked as fast as it answers.
  const client = () =>
    new UpstreamClient({
      sources: { BLS: { url: address }, OECD: { url: `${fakeUrl}/oecd` }, CENSUS: { url: `${fakeUrl}/census`, key: 'bench' } },
      cache: new MemoryCache(),
      limiter: new HostGroupLimiter(() => ({ requestsPerSecond: 1000, concurrency: 1 })),
    });
  const upstream = client();
  const search = (query: string) => searchSeries(upstream, { query, topic: query, words: [], limit: 10 });
  /** Loads every catalogue served: BLS's by a first search, the others as their searches load them. */
  const loadAll = async () => {
    await search(QUERIES[0]!);
    if (others.has('oecd')) await dataflowList(upstream, PRESET_WORDS);
    if (others.has('census')) await datasetList(upstream);
  };

  warmYoungGeneration();
  const warmed = await settled();
  const youngBefore = youngGeneration();
  // The second baseline: a server that has served before: a small list read through the client (its HTTP code used) and the
  // search's code run once on a small catalogue kept in a database file (the SQLite library's pages read, the code compiled).
  const reader = client();
  await reader.readText('bls', { baseUrl: `${address}/labstat`, path: '/small.series', maxBodyBytes: 96 * 1024 * 1024 }, () => undefined);
  const small = new CatalogueIndex(new Map(), { storedFrom: 0 });
  await small.addAll(readSeriesList(readFileSync(new URL('../test/recordings/bls/labstat-ce-series-first-999.tsv', import.meta.url), 'utf8'), 'ce'));
  for (let round = 0; round < 20; round += 1) for (const query of QUERIES) small.find(query, 10);
  const served = await settled();
  // The third: the lists downloaded once (as the server reads them) and dropped, as a server that has already read answers this
  // large (the memory the allocators keep from reading them is then in the baseline, and what grows after is what the catalogue holds).
  for (const survey of Object.keys(EXCERPTS)) {
    await reader.readText('bls', { baseUrl: `${address}/labstat`, path: `/${survey}/${survey}.series`, maxBodyBytes: 96 * 1024 * 1024 }, () => undefined);
  }
  if (others.has('oecd')) await reader.readText('oecd', { path: OECD_LIST.slice('/oecd'.length), maxBodyBytes: 96 * 1024 * 1024 }, () => undefined);
  if (others.has('census')) await reader.readText('census', { baseUrl: fakeUrl, path: CENSUS_CATALOGUE, maxBodyBytes: 96 * 1024 * 1024 }, () => undefined);
  await reader.close();
  const downloaded = await settled();

  const started = process.hrtime.bigint();
  await loadAll();
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  const after = await settled();

  const firstAnswers = [];
  for (const query of QUERIES)
    firstAnswers.push(
      `"${query}": ${(await search(query)).candidates
        .slice(0, 3)
        .map((candidate) => candidate.seriesId)
        .join(', ')}`,
    );
  const timings: number[] = [];
  for (let round = 0; round < SEARCHES; round += 1) {
    const query = QUERIES[round % QUERIES.length]!;
    const at = process.hrtime.bigint();
    await search(query);
    timings.push(Number(process.hrtime.bigint() - at) / 1e6);
  }
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  const grew = (key: 'rss' | 'heap' | 'committed' | 'malloc', before: Awaited<ReturnType<typeof settled>>) =>
    `grew ${mib(after[key] - before[key])} (${((after[key] - before[key]) / wire).toFixed(2)} x the wire size)`;
  console.log(`catalogues: ${process.env.BENCH_CATALOGUES_LISTS}, ${mib(wire)} on the wire`);
  console.log(`  memory after ${RELEASING ? "V8's memory-reducing" : 'plain'} full collections`);
  console.log(`  first searches (read and index them): ${loadMs.toFixed(0)} ms`);
  console.log(`  young generation (warmed first): ${mib(youngBefore)} before, ${mib(youngGeneration())} after`);
  console.log(`  resident memory, young generation warmed: ${mib(warmed.rss)} before, ${mib(after.rss)} after: ${grew('rss', warmed)}`);
  console.log(`  resident memory, a server that has served before: ${mib(served.rss)} before: ${grew('rss', served)}`);
  console.log(`  resident memory, the lists also downloaded once before: ${mib(downloaded.rss)} before: ${grew('rss', downloaded)}`);
  console.log(`  live heap and buffers: ${grew('heap', warmed)}`);
  for (const [name, baseline] of [
    ['first', warmed],
    ['last', downloaded],
  ] as const) {
    console.log(`  since the ${name} baseline: V8's heap (committed) ${grew('committed', baseline)}, the C allocator's main arena ${grew('malloc', baseline)}`);
  }
  console.log(
    `  ${SEARCHES} searches on the loaded catalogue: p50 ${percentile(timings, 0.5).toFixed(2)} ms, p95 ${percentile(timings, 0.95).toFixed(2)} ms (load average ${load})`,
  );
  for (const line of firstAnswers) console.log(`  ${line}`);
  await upstream.close();
}

if (process.env.BENCH_CATALOGUES_CHILD === '1') await measure();
