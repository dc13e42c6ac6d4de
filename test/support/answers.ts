/**
 * Every successful tool answer the tests receive from a server running the real handlers, kept as
 * the set of `data` property paths it filled per tool (`domains[].accession`), so that one check at
 * the end of the run (test/answers.fixtures.ts, asked for by test/tools/data-fields.test.ts) can
 * compare them with the fields each tool declares. Answers of substitute handlers
 * (test/support/stub-handlers.ts) are not taken. Each test process (mocha's parallel workers
 * included) saves what it saw into the run's folder, TEST_ANSWERS_DIR, after each file.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolHandlers } from '../../generated/routes.ts';
import type { ToolContext } from '../../src/tools/context.ts';
import { createHandlers } from '../../src/tools/handlers.ts';

const realHandlers = createHandlers();
/** Per running server, the tools it answers with their real handler. */
const servers = new Map<string, Set<string>>();
const filled = new Map<string, Set<string>>();

/** Listens to the server's answers of the tools whose handler is the real one (all of them when `handlers` is not given). */
export function listenTo(baseUrl: string, handlers?: ToolHandlers<ToolContext>): void {
  const tools = Object.keys(realHandlers) as Array<keyof ToolHandlers<ToolContext>>;
  servers.set(baseUrl, new Set(tools.filter((tool) => handlers === undefined || handlers[tool] === realHandlers[tool])));
}

export function stopListening(baseUrl: string): void {
  servers.delete(baseUrl);
}

/** Notes the answer to `path` (`/api/v1/<tool>`) when it is a successful answer of a real tool handler. */
export function noteAnswer(baseUrl: string, path: string, status: number, body: unknown): void {
  const tool = /^\/api\/v1\/([a-z_]+)$/.exec(path.split('?')[0]!)?.[1];
  if (!tool || status !== 200 || !servers.get(baseUrl)?.has(tool)) return;
  const records = (body as { records?: unknown } | undefined)?.records;
  if (!Array.isArray(records)) return;
  const paths = filled.get(tool) ?? new Set<string>();
  filled.set(tool, paths);
  for (const record of records) collectPaths((record as { data?: unknown }).data, '', paths);
}

/** Writes what this process saw so far into `folder` (one file per process, replaced each time). */
export function saveFilledPaths(folder: string): void {
  const saved = Object.fromEntries([...filled].map(([tool, paths]) => [tool, [...paths]]));
  writeFileSync(path.join(folder, `filled-${process.pid}.json`), JSON.stringify(saved));
}

/** Tools with at least one successful answer in any process of the run, each with the data paths its answers filled. */
export function loadFilledPaths(folder: string): ReadonlyMap<string, ReadonlySet<string>> {
  const merged = new Map<string, Set<string>>();
  for (const file of readdirSync(folder).filter((name) => /^filled-\d+\.json$/.test(name))) {
    const saved = JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as Record<string, string[]>;
    for (const [tool, paths] of Object.entries(saved)) {
      const into = merged.get(tool) ?? new Set<string>();
      merged.set(tool, into);
      for (const one of paths) into.add(one);
    }
  }
  return merged;
}

function collectPaths(value: unknown, prefix: string, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectPaths(item, `${prefix}[]`, into);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const path = prefix === '' ? key : `${prefix}.${key}`;
    into.add(path);
    collectPaths(item, path, into);
  }
}

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; $ref?: string };

/** The property paths a JSON schema declares, in the same notation (references resolved against `components`). */
export function declaredPaths(schema: Schema, components: Record<string, Schema>, prefix = ''): string[] {
  const resolved = schema.$ref ? components[schema.$ref.replace('#/components/schemas/', '')]! : schema;
  if (resolved.items) return declaredPaths(resolved.items, components, `${prefix}[]`);
  return Object.entries(resolved.properties ?? {}).flatMap(([key, property]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    return [path, ...declaredPaths(property, components, path)];
  });
}
