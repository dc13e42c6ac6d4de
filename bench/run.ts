/** npm run bench: every benchmark of the project, each printing figures measured side by side in one run. */
import { runBreakerBench } from './breaker-skip.ts';
import { runFanoutBench } from './fanout.ts';
import { runOpenapiDiffBench } from './openapi-diff.ts';
import { runServerOverheadBench } from './server-overhead.ts';

const benches: Array<[string, () => Promise<void>]> = [
  ['server overhead', runServerOverheadBench],
  ['upstream fan-out', runFanoutBench],
  ['breaker skip', runBreakerBench],
  ['OpenAPI diff', runOpenapiDiffBench],
];

for (const [name, bench] of benches) {
  const started = Date.now();
  await bench();
  console.log(`(${name}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
