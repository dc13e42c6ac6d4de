/**
 * Every field a tool declares in its `data` schema is filled by at least one answer the tests
 * received over HTTP (from servers with the real handlers). The check runs after the whole suite
 * (a root `after` hook), over what test/support/answers.ts collected; run alone it fails, since
 * no answers were collected. Tools still answering "not available yet" are exempt, so the check
 * takes them in as soon as handlers.ts lists them as available.
 */
import { expect } from 'chai';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { availableTools } from '../../src/tools/handlers.ts';
import { declaredPaths, filledPaths } from '../support/answers.ts';

const pascal = (tool: string) =>
  tool
    .split('_')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

type Schemas = Parameters<typeof declaredPaths>[1];

/**
 * Declared fields the real handlers do fill from real data, but that no test answer fills yet. Each
 * entry is a debt: the check fails when one is filled (so the list only shrinks) as well as when a
 * field outside it is not.
 */
const NOT_YET_FILLED_BY_A_TEST: Record<string, string[]> = {};

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

describe('the check of declared data fields', () => {
  const components = openapi.components.schemas as unknown as Schemas;
  it('lists the declared paths of nested objects and arrays of objects', () => {
    const paths = declaredPaths(components.LookupGeneProteinData!, components);
    expect(paths).to.include.members(['domains', 'domains[].accession', 'domains[].name', 'ids.uniprot_accession']);
  });
  it('names, per tool, the declared fields no answer filled, and a tool without any answer in full', () => {
    const filled = new Map([['query_gaia', new Set(['source_id', 'ra_deg'])]]);
    const unfilled = unfilledFields(components, ['query_gaia', 'lookup_astro_object'], filled);
    expect(unfilled.query_gaia).to.include('teff_k').and.not.include('source_id');
    expect(unfilled.lookup_astro_object).to.include.members(['main_id', 'identifiers']);
  });
});

after("every field declared in an available tool's data schema was filled by at least one test answer", function () {
  const filled = filledPaths();
  const available = [...availableTools];
  expect(
    {
      // Not vacuous: every available tool answered successfully at least once in this run.
      toolsWithoutAnswers: available.filter((tool) => !filled.has(tool)),
      unfilledFields: unfilledFields(openapi.components.schemas as unknown as Schemas, available, filled),
    },
    'available tools without any successful answer in this run (run the whole suite), and declared data fields no test answer filled',
  ).to.deep.equal({
    toolsWithoutAnswers: [],
    unfilledFields: Object.fromEntries(Object.entries(NOT_YET_FILLED_BY_A_TEST).filter(([tool]) => availableTools.has(tool as never))),
  });
});
