import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { down, expectCharged, expectNotCharged, sourcesHarness, own, recorded } from '../life/support.ts';

const SOURCES = ['materials-project', 'cod'] as const;
const PARTIAL = ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id'];

describeOnEachEngine('lookup_material over HTTP', (engine) => {
  describe('with a Materials Project key', () => {
    const chem = sourcesHarness(engine, SOURCES, { SOURCE_MATERIALS_PROJECT_KEY: 'test-mp-key' });

    it('interleaves computed phases and experimental entries with exact numbers, links and the key in its header', async () => {
      chem.on('materials-project', '/materials/summary/', own('materials-project', 'hand-made-summary-formula-Fe2O3.json'));
      chem.on('cod', '/result', recorded('cod', 'result-text-aspirin-first5.json'));
      const result = await chem.charged('lookup_material', { formula: 'Fe2O3', limit: 3 });
      expectCharged(result);
      const [first, second, third] = result.answer.body.records;
      expect({ ...first, retrievedAt: undefined }).to.deep.equal({
        id: 'materials-project:mp-19770',
        type: 'material',
        source: 'materials-project',
        title: 'Fe2O3',
        url: 'https://next-gen.materialsproject.org/materials/mp-19770',
        license: 'CC-BY-4.0',
        attribution: 'Materials Project (materialsproject.org), CC BY 4.0',
        retrievedAt: undefined,
        data: {
          material_id: 'mp-19770',
          formula: 'Fe2O3',
          elements: ['Fe', 'O'],
          band_gap_ev: 1.9504,
          formation_energy_per_atom_ev: -1.7184,
          energy_above_hull_ev: 0,
          is_stable: true,
          theoretical: false,
          space_group_symbol: 'R-3c',
          space_group_number: 167,
          crystal_system: 'trigonal',
          lattice: { a: 5.4274, b: 5.4274, c: 5.4274, alpha: 55.1, beta: 55.1, gamma: 55.1, volume: 101.52 },
          page_url: 'https://next-gen.materialsproject.org/materials/mp-19770',
        },
      });
      expect({ ...second, retrievedAt: undefined }).to.deep.equal({
        id: 'cod:cod-1515581',
        type: 'material',
        source: 'cod',
        title: 'C9H8O4 (Aspirin form II)',
        url: 'https://www.crystallography.net/cod/1515581.html',
        license: 'CC0-1.0',
        attribution: 'Crystallography Open Database (crystallography.net), public domain (CC0)',
        retrievedAt: undefined,
        data: {
          material_id: 'cod-1515581',
          formula: 'C9H8O4',
          elements: ['C', 'H', 'O'],
          mineral_name: 'Aspirin form II',
          space_group_symbol: 'P 1 21/c 1',
          space_group_number: 14,
          crystal_system: 'monoclinic',
          lattice: { a: 12.1016, b: 6.4721, c: 11.3344, alpha: 90, beta: 111.593, gamma: 90, volume: 825.44 },
          cif_url: 'https://www.crystallography.net/cod/1515581.cif',
          page_url: 'https://www.crystallography.net/cod/1515581.html',
          reference_doi: '10.1039/c1sc00430a',
        },
      });
      expect(third.id).to.equal('materials-project:mp-715572');
      expect(result.answer.body.summary).to.equal('3 materials for Fe2O3: 2 from materials-project, 1 from cod.');
      const summary = chem.hits('materials-project', '/materials/summary/')[0]!;
      expect([
        summary.headers['x-api-key'],
        summary.query.get('formula'),
        summary.query.get('deprecated'),
        summary.query.get('_limit'),
        summary.query.get('_fields'),
      ]).to.deep.equal([
        'test-mp-key',
        'Fe2O3',
        'false',
        '3',
        'material_id,formula_pretty,elements,band_gap,formation_energy_per_atom,energy_above_hull,is_stable,theoretical,symmetry,structure',
      ]);
      const codQuery = chem.hits('cod', '/result')[0]!.query;
      expect([codQuery.get('formula'), codQuery.get('format')]).to.deep.equal(['Fe2 O3', 'json']);
    });

    it('an element set is an exact chemical system; stable_only asks only for stable phases and skips COD', async () => {
      chem.on('materials-project', '/materials/summary/', own('materials-project', 'hand-made-summary-formula-Fe2O3.json'));
      const result = await chem.charged('lookup_material', { elements: ['O', 'Fe'], stable_only: true });
      expectCharged(result);
      const query = chem.hits('materials-project', '/materials/summary/')[0]!.query;
      expect([query.get('chemsys'), query.get('is_stable')]).to.deep.equal(['Fe-O', 'true']);
      expect(chem.hits('cod', '/result')).to.have.length(0);
    });

    it('an mp- id asks only the Materials Project; a bare 7-digit id asks only COD', async () => {
      chem.on('materials-project', '/materials/summary/', own('materials-project', 'hand-made-summary-formula-Fe2O3.json'));
      chem.on('cod', '/result', recorded('cod', 'result-text-aspirin-first5.json'));
      expectCharged(await chem.charged('lookup_material', { material_id: 'mp-19770' }));
      expect(chem.hits('materials-project', '/materials/summary/')[0]!.query.get('material_ids')).to.equal('mp-19770');
      expect(chem.hits('cod', '/result')).to.have.length(0);
      expectCharged(await chem.charged('lookup_material', { material_id: '1515581' }));
      expect(chem.hits('cod', '/result')[0]!.query.get('id')).to.equal('1515581');
      expect(chem.hits('materials-project', '/materials/summary/')).to.have.length(1);
    });

    it("when COD fails the computed phases still come: partial, with COD's reason", async () => {
      chem.on('materials-project', '/materials/summary/', own('materials-project', 'hand-made-summary-formula-Fe2O3.json'));
      chem.on('cod', '/result', down);
      const result = await chem.charged('lookup_material', { formula: 'Fe2O3' });
      expectCharged(result, PARTIAL);
      expect(result.answer.body.failedSources).to.deep.equal([{ source: 'cod', error: 'cod answered HTTP 503: service unavailable' }]);
      expect(result.answer.body.records.map((record: any) => record.id)).to.deep.equal(['materials-project:mp-19770', 'materials-project:mp-715572']);
    });

    it("is a 502 keeping the Materials Project's reason, not charged, when both fail", async () => {
      chem.on('materials-project', '/materials/summary/', own('materials-project', 'hand-made-error-401-invalid-key.json', { status: 401 }));
      chem.on('cod', '/result', down);
      const result = await chem.charged('lookup_material', { formula: 'Fe2O3' });
      expectNotCharged(result);
      expect(result.answer.body.error.message).to.equal(
        'no source answered: materials-project answered HTTP 401: Invalid or missing API key. Get a key at https://next-gen.materialsproject.org/api; cod answered HTTP 503: service unavailable',
      );
    });

    it('rejects a malformed material_id, a limit over 100, no criterion at all, and a COD id with stable_only, naming the field', async () => {
      for (const [body, field] of [
        [{ material_id: 'mp-abc' }, 'material_id'],
        [{ material_id: '123' }, 'material_id'],
        [{ formula: 'Fe2O3', limit: 101 }, 'limit'],
        [{ elements: ['fe'] }, 'elements.0'],
        [{ material_id: 'cod-1515581', stable_only: true }, 'material_id'],
      ] as const) {
        const result = await chem.charged('lookup_material', body);
        expectNotCharged(result, 400, 'invalid_input');
        expect(result.answer.body.error.message).to.match(new RegExp(`^${field.replace('.', '\\.')}: `));
      }
      const none = await chem.charged('lookup_material', { limit: 5 });
      expectNotCharged(none, 400, 'invalid_input');
      expect(none.answer.body.error.message).to.include('formula');
    });
  });

  describe('without a Materials Project key', () => {
    const chem = sourcesHarness(engine, SOURCES);

    it('answers from COD, partial, with a message naming SOURCE_MATERIALS_PROJECT_KEY', async () => {
      chem.on('cod', '/result', recorded('cod', 'result-text-aspirin-first5.json'));
      const result = await chem.charged('lookup_material', { formula: 'C9H8O4', limit: 2 });
      expectCharged(result, PARTIAL);
      expect(result.answer.body.failedSources).to.deep.equal([
        { source: 'materials-project', error: 'materials-project needs an API key: set SOURCE_MATERIALS_PROJECT_KEY' },
      ]);
      expect(result.answer.body.records.map((record: any) => record.id)).to.deep.equal(['cod:cod-1515581', 'cod:cod-1515582']);
      expect(chem.hits('materials-project', '/materials/summary/')).to.have.length(0);
      expect(chem.hits('cod', '/result')[0]!.query.get('formula')).to.equal('C9 H8 O4');
    });
  });
});
