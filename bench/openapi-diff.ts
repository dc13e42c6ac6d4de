/**
 * OpenAPI diff on two specs of about 1 MB: the project's generated/openapi.json three times over
 * (paths and components copied under new names), and a revision of it with a few changes.
 * Prints the time to read each spec, to diff them, and the diff time beside JSON.parse of the same bytes.
 */
import { readFileSync } from 'node:fs';
import { diffSpecs } from '../codegen/openapi-diff/diff.ts';
import { specFromObject } from '../codegen/openapi-diff/load.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- generated specs of any shape
type Json = Record<string, any>;

function enlarge(spec: Json, copies: number): Json {
  const out: Json = { ...spec, paths: {}, components: { ...spec.components, schemas: { ...spec.components.schemas } } };
  for (let copy = 0; copy < copies; copy++) {
    const text = JSON.stringify({ paths: spec.paths, schemas: spec.components.schemas })
      .replaceAll('"#/components/schemas/', `"#/components/schemas/C${copy}`)
      .replaceAll('"/api/v1', `"/api/c${copy}/v1`);
    const part = JSON.parse(text) as Json;
    Object.assign(out.paths, part.paths);
    for (const [name, schema] of Object.entries(part.schemas as Json)) out.components.schemas[`C${copy}${name}`] = schema;
  }
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function time(fn: () => void, runs: number): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    fn();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return median(samples);
}

export async function runOpenapiDiffBench(): Promise<void> {
  const project = JSON.parse(readFileSync(new URL('../generated/openapi.json', import.meta.url), 'utf8')) as Json;
  const base = enlarge(project, 3);
  const revision = structuredClone(base);
  const schemas = revision.components.schemas as Json;
  delete schemas.C0SearchPapersArgs.properties.limit;
  schemas.C1CheckRetractionsRecord.properties.extra = { type: 'string' };
  schemas.C2SearchPapersArgs.properties.query.maxLength = 200;
  const baseText = JSON.stringify(base, null, 2);
  const revisionText = JSON.stringify(revision, null, 2);
  const runs = 7;
  const parse = time(() => JSON.parse(baseText), runs);
  const load = time(() => specFromObject(JSON.parse(baseText), 'base'), runs);
  let changes = 0;
  const diff = time(() => {
    changes = diffSpecs(specFromObject(JSON.parse(baseText), 'base'), specFromObject(JSON.parse(revisionText), 'revision')).length;
  }, runs);
  const self = time(() => {
    diffSpecs(specFromObject(JSON.parse(baseText), 'base'), specFromObject(JSON.parse(baseText), 'base'));
  }, runs);
  const mb = (text: string) => (Buffer.byteLength(text) / 1e6).toFixed(2);
  console.log(
    `openapi:diff on two specs of ${mb(baseText)} MB and ${mb(revisionText)} MB (${Object.keys(base.paths).length} paths each), median of ${runs} runs:`,
  );
  console.log(`  JSON.parse of one spec                       ${parse.toFixed(1)} ms`);
  console.log(`  read one spec (parse + checks)               ${load.toFixed(1)} ms`);
  console.log(`  parse both and diff (${changes} changes)            ${diff.toFixed(1)} ms  (${(diff / parse).toFixed(1)}x one JSON.parse)`);
  console.log(`  parse both and diff a spec with itself       ${self.toFixed(1)} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runOpenapiDiffBench().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
