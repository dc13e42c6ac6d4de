/** npm run bench: every benchmark of the project, each printing figures measured side by side in one run; `npm run bench -- <name> [options]` runs the one named. */
import { runBreakerBench } from './breaker-skip.ts';
import { runCataloguesBench } from './catalogues.ts';
import { runCensusCatalogueBench } from './census-catalogue.ts';
import { runFanoutBench } from './fanout.ts';
import { runOpenapiDiffBench } from './openapi-diff.ts';
import { runServerOverheadBench } from './server-overhead.ts';
import { runStructuresBench } from './structures.ts';

const [only, ...options] = process.argv.slice(2);

const benches: Array<[string, (options: string[]) => Promise<void>]> = [
  ['server overhead', runServerOverheadBench],
  ['upstream fan-out', runFanoutBench],
  ['breaker skip', runBreakerBench],
  ['OpenAPI diff', runOpenapiDiffBench],
  ['catalogues', runCataloguesBench],
  ['structures', runStructuresBench],
  ['census catalogue', runCensusCatalogueBench],
];

for (const [name, run] of benches) {
  if (only !== undefined && name !== only) continue;
  const bench = () => run(options);
  const started = Date.now();
  await bench();
  console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
