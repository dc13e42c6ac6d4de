/**
 * Census's dataset catalogue (data.json): how long reading it holds the event loop. The catalogue
 * is served by a fake upstream on loopback and read through one warmed upstream client, two ways
 * side by side: as the connector reads it (readDatasetEntries: parsed a piece at a time as it
 * streams, other calls running between pieces), and as it was read before run 38 (fetched whole
 * with getJson, parsed with JSON.parse, its datasets picked out). Then the index of the datasets
 * kept, built the same way after either read, is timed on its own. Prints the medians.
 *
 * `--data-json <file>` reads a whole data.json (as downloaded from `api.census.gov/data.json`). By
 * default the stand-in is the recorded excerpt's ten real entries repeated, each under a path of
 * its own, to the size of the whole catalogue (5,021,671 characters, test/recordings/census/README.md):
 * the entries are real, their mix is not (eight of ten are time series, so far more datasets are
 * kept and indexed than from the whole catalogue).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CATALOGUE_MAX_BYTES, catalogueAddress, datasetIndex, datasetOf, readDatasetEntries } from '../src/connectors/census-catalogue.ts';
import { MemoryCache } from '../src/upstream/cache.ts';
import { UpstreamClient } from '../src/upstream/client.ts';
import { startFakeUpstream } from '../test/support/fake-upstream.ts';
import { longestPause, median } from './pauses.ts';

const EXCERPT = fileURLToPath(new URL('../test/recordings/census/data-json-catalogue-excerpt.json', import.meta.url));
const WHOLE_SIZE = 5_021_671;
const ROUNDS = 11;

/** The excerpt's entries repeated up to the whole catalogue's size, each copy's dataset path made its own. */
function standIn(): string {
  const excerpt = JSON.parse(readFileSync(EXCERPT, 'utf8')) as { dataset: Array<{ c_dataset: string[] }> };
  const dataset: unknown[] = [];
  let size = JSON.stringify(excerpt).length;
  for (let copy = 0; size < WHOLE_SIZE; copy += 1) {
    for (const entry of excerpt.dataset) {
      const renamed = { ...entry, c_dataset: [...entry.c_dataset, `copy${copy}`] };
      dataset.push(renamed);
      size += JSON.stringify(renamed).length + 1;
    }
  }
  return JSON.stringify({ ...excerpt, dataset });
}

export async function runCensusCatalogueBench(args: string[] = []): Promise<void> {
  const fileAt = args.indexOf('--data-json');
  const body = fileAt >= 0 ? readFileSync(args[fileAt + 1]!, 'utf8') : standIn();
  const fake = await startFakeUpstream();
  fake.on('/census.json', { body, contentType: 'application/json' });
  const upstream = new UpstreamClient({ sources: { CENSUS: { url: `${fake.url}/census`, key: 'bench', timeoutMs: 60_000 } }, cache: new MemoryCache() });
  const streamed = async () => (await readDatasetEntries(upstream)).entries;
  /** The read as it was: the whole answer, then JSON.parse (in getJson), then the same datasets. */
  const whole = async () => {
    const answer = await upstream.getJson('census', {
      ...catalogueAddress(upstream.source('census').baseUrl),
      key: { query: 'key' },
      maxBodyBytes: CATALOGUE_MAX_BYTES,
    });
    return (answer.body as { dataset: unknown[] }).dataset.flatMap((entry) => datasetOf(entry) ?? []);
  };
  try {
    // One read each way first: warms the client and both parsers.
    const [kept, keptStreamed] = [await whole(), await streamed()];
    console.log(
      `census catalogue: ${fileAt >= 0 ? args[fileAt + 1] : 'stand-in (the excerpt repeated)'}, ${(Buffer.byteLength(body) / 1024 ** 2).toFixed(1)} MiB, ` +
        `${kept.length} time-series datasets kept (read as it streams: ${keptStreamed.length}); median of ${ROUNDS} rounds`,
    );
    const pauses = { streamed: [] as number[], whole: [] as number[], index: [] as number[] };
    const times = { streamed: [] as number[], whole: [] as number[], index: [] as number[] };
    const timed = async (name: keyof typeof pauses, work: () => unknown) => {
      const started = performance.now();
      pauses[name].push(await longestPause(work));
      times[name].push(performance.now() - started);
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      await timed('streamed', streamed);
      await timed('whole', whole);
      await timed('index', () => datasetIndex(kept));
    }
    const line = (name: string, key: keyof typeof pauses) =>
      `  ${name}: longest pause ${median(pauses[key]).toFixed(1)} ms, ${median(times[key]).toFixed(0)} ms in all`;
    console.log(line('read as it streams', 'streamed'));
    console.log(line('fetched whole, then JSON.parse', 'whole'));
    console.log(`  longest pause, whole / streamed: ${(median(pauses.whole) / median(pauses.streamed)).toFixed(1)} x`);
    console.log(line(`then the index of the ${kept.length} datasets (either way)`, 'index'));
  } finally {
    await upstream.close();
    await fake.close();
  }
}
