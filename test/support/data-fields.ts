/**
 * The check that every field a tool declares in its `data` schema is filled by at least one answer
 * the tests received over HTTP (test/support/answers.ts collects them). It runs once after the whole
 * run (test/answers.fixtures.ts) when test/tools/data-fields.test.ts is part of the run. Tools still
 * answering "not available yet" are exempt, so the check takes them in as soon as handlers.ts lists
 * them as available.
 */
import { isDeepStrictEqual } from 'node:util';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { availableTools } from '../../src/tools/handlers.ts';
import { declaredPaths } from './answers.ts';

export type Schemas = Parameters<typeof declaredPaths>[1];

/** Written into the run's answers folder by data-fields.test.ts: the check is asked for. */
export const CHECK_REQUESTED = 'data-fields-check-requested';

/**
 * Declared fields the real handlers do fill from real data, but that no test answer fills yet. Each
 * entry is a debt: the check fails when one is filled (so the list only shrinks) as well as when a
 * field outside it is not.
 */
const NOT_YET_FILLED_BY_A_TEST: Record<string, string[]> = {};

const pascal = (tool: string) =>
  tool
    .split('_')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

export function unfilledFields(components: Schemas, available: Iterable<string>, filled: ReadonlyMap<string, ReadonlySet<string>>): Record<string, string[]> {
  const unfilled: Record<string, string[]> = {};
  for (const tool of [...available].sort()) {
    const schema = components[`${pascal(tool)}Data`];
    if (!schema) throw new Error(`no data schema for ${tool} in generated/openapi.json`);
    const seen = filled.get(tool) ?? new Set<string>();
    const missing = declaredPaths(schema, components).filter((path) => !seen.has(path));
    if (missing.length > 0) unfilled[tool] = missing;
  }
  return unfilled;
}

/** Undefined when the run's answers filled every declared field (and every available tool answered); otherwise what is wrong. */
export function dataFieldsProblem(filled: ReadonlyMap<string, ReadonlySet<string>>): string | undefined {
  const available = [...availableTools];
  const found = {
    // Not vacuous: every available tool answered successfully at least once in this run.
    toolsWithoutAnswers: available.filter((tool) => !filled.has(tool)),
    unfilledFields: unfilledFields(openapi.components.schemas as unknown as Schemas, available, filled),
  };
  const expected = {
    toolsWithoutAnswers: [],
    unfilledFields: Object.fromEntries(Object.entries(NOT_YET_FILLED_BY_A_TEST).filter(([tool]) => availableTools.has(tool as never))),
  };
  if (isDeepStrictEqual(found, expected)) return undefined;
  return (
    'available tools without any successful answer in this run (run the whole suite), and declared data fields no test answer filled:\n' +
    `  found:    ${JSON.stringify(found)}\n  expected: ${JSON.stringify(expected)}`
  );
}
