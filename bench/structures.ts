/**
 * OECD structure messages: how long reading one holds the event loop. Each message is served by a
 * fake upstream on loopback and read through one warmed upstream client and the connector (structureOf:
 * parsed a piece at a time as it streams, other calls running between pieces), while a timer firing
 * every millisecond notes the longest pause; side by side, the same message is parsed whole in one
 * go (as before run 37). Prints, per message, the longest pause of each way and their ratio.
 *
 * By default the repository's recorded excerpts are read (small); `--structures <folder>` reads
 * every `*.xml` of that folder instead (whole answers, as downloaded from
 * `sdmx.oecd.org/public/rest/dataflow/{agency}/{id}/{version}?references=all&detail=referencepartial`).
 * `--dataflows <file>` also reads a whole dataflow list (`…/dataflow/all/all/latest`) the same two
 * ways, each with its index built (readDataflowList as it streams; readDataflows, then dataflowIndex).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataflowIndex, readDataflowList, readDataflows, readStructure, structureOf } from '../src/connectors/oecd-catalogue.ts';
import { PRESET_WORDS } from '../src/connectors/oecd.ts';
import { MemoryCache } from '../src/upstream/cache.ts';
import { UpstreamClient } from '../src/upstream/client.ts';
import { HostGroupLimiter } from '../src/upstream/limits.ts';
import { startFakeUpstream } from '../test/support/fake-upstream.ts';
import { longestPause, median } from './pauses.ts';

const RECORDINGS = fileURLToPath(new URL('../test/recordings/oecd/', import.meta.url));
const ROUNDS = 11;

export async function runStructuresBench(args: string[] = []): Promise<void> {
  const folderAt = args.indexOf('--structures');
  const folder = folderAt >= 0 ? args[folderAt + 1]! : RECORDINGS;
  const files = readdirSync(folder).filter((file) => file.endsWith('.xml') && (folderAt >= 0 || file.startsWith('structure-')));
  const fake = await startFakeUpstream();
  const bodies = new Map<string, string>();
  // Every round asks for another dataflow id, so that nothing held (the catalogue store, the cache) answers it.
  fake.under('/oecd/dataflow/A/', (hit) => ({
    body: bodies.get(hit.path.split('/')[4]!.split('-')[0]!)!,
    contentType: 'application/vnd.sdmx.structure+xml; version=2.1',
  }));
  // One client for every round, warmed by a first read: what is measured is the read, not a client's first request. OECD's
  // own pace (a request every 3 s) would only make the bench wait: its fake upstream is asked as fast as it answers.
  const upstream = new UpstreamClient({
    sources: { OECD: { url: `${fake.url}/oecd`, timeoutMs: 30_000 } },
    cache: new MemoryCache(),
    limiter: new HostGroupLimiter(() => ({ requestsPerSecond: 1000, concurrency: 1 })),
  });
  try {
    console.log(`structures: the longest event-loop pause while one message is read, median of ${ROUNDS} rounds`);
    for (const [index, file] of files.entries()) {
      const body = readFileSync(join(folder, file), 'utf8');
      bodies.set(`F${index}`, body);
      const streamed: number[] = [];
      const whole: number[] = [];
      await structureOf(upstream, { agency: 'A', id: `F${index}-warm`, version: '1.0' });
      for (let round = 0; round < ROUNDS; round += 1) {
        streamed.push(await longestPause(() => structureOf(upstream, { agency: 'A', id: `F${index}-${round}`, version: '1.0' })));
        whole.push(await longestPause(() => readStructure(body)));
      }
      const [asStreamed, asWhole] = [median(streamed), median(whole)];
      console.log(
        `  ${file} (${(Buffer.byteLength(body) / 1024).toFixed(0)} KB): read as it streams ${asStreamed.toFixed(1)} ms, parsed whole ${asWhole.toFixed(1)} ms (${(asWhole / asStreamed).toFixed(1)} x)`,
      );
    }
    const listAt = args.indexOf('--dataflows');
    if (listAt >= 0) {
      const body = readFileSync(args[listAt + 1]!, 'utf8');
      fake.on('/oecd/dataflow/all/all/latest', { body, contentType: 'application/vnd.sdmx.structure+xml; version=2.1' });
      const read = { streamed: () => readDataflowList(upstream, PRESET_WORDS), whole: () => dataflowIndex(readDataflows(body), PRESET_WORDS) };
      const pauses = { streamed: [] as number[], whole: [] as number[] };
      await read.streamed();
      for (let round = 0; round < ROUNDS; round += 1) {
        pauses.streamed.push(await longestPause(read.streamed));
        pauses.whole.push(await longestPause(read.whole));
      }
      const [asStreamed, asWhole] = [median(pauses.streamed), median(pauses.whole)];
      console.log(
        `  dataflow list ${args[listAt + 1]} (${(Buffer.byteLength(body) / 1024).toFixed(0)} KB), indexed: read as it streams ${asStreamed.toFixed(1)} ms, parsed whole ${asWhole.toFixed(1)} ms (${(asWhole / asStreamed).toFixed(1)} x)`,
      );
    }
  } finally {
    await upstream.close();
    await fake.close();
  }
}
