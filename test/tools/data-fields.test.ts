/**
 * The check of declared data fields (test/support/data-fields.ts): its parts here, and the check
 * itself asked for, to run once after the whole run over what every test process collected.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { declaredPaths } from '../support/answers.ts';
import { CHECK_REQUESTED, dataFieldsProblem, unfilledFields, type Schemas } from '../support/data-fields.ts';

describe('the check of declared data fields', () => {
  const components = openapi.components.schemas as unknown as Schemas;
  before(function () {
    const folder = process.env.TEST_ANSWERS_DIR;
    if (!folder) throw new Error('TEST_ANSWERS_DIR is not set: run mocha with .mocharc.json, which loads test/answers.fixtures.ts');
    writeFileSync(path.join(folder, CHECK_REQUESTED), '');
  });
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
  it('fails a run in which no answer was collected, naming the tools without answers', () => {
    expect(dataFieldsProblem(new Map())).to.match(/^available tools without any successful answer in this run/);
  });
});
