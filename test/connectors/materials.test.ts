import { expect } from 'chai';
import { compactFormula, parseEntries, searchParams } from '../../src/connectors/cod.ts';
import { crystalSystemOf, hillFormula } from '../../src/connectors/materials.ts';
import { parseSummary } from '../../src/connectors/materials-project.ts';
import { reasonFromBody } from '../../src/upstream/body.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

describeRecordings('cod', () => {
  it('reads the aspirin search: every value a string, formulas wrapped in dashes, lattice parameters as numbers', () => {
    const entries = parseEntries(JSON.parse(recording('cod', 'result-text-aspirin-first5.json')));
    expect(entries).to.have.length(5);
    expect(entries[0]).to.deep.equal({
      materialId: 'cod-1515581',
      formula: 'C9H8O4',
      elements: ['C', 'H', 'O'],
      mineralName: 'Aspirin form II',
      spaceGroupSymbol: 'P 1 21/c 1',
      spaceGroupNumber: 14,
      crystalSystem: 'monoclinic',
      lattice: { a: 12.1016, b: 6.4721, c: 11.3344, alpha: 90, beta: 111.593, gamma: 90, volume: 825.44 },
      cifUrl: 'https://www.crystallography.net/cod/1515581.cif',
      pageUrl: 'https://www.crystallography.net/cod/1515581.html',
      referenceDoi: '10.1039/c1sc00430a',
    });
    expect(entries.map((entry) => entry.materialId)).to.deep.equal(['cod-1515581', 'cod-1515582', 'cod-1516479', 'cod-1516480', 'cod-1516481']);
  });
});

describe('cod connector', () => {
  it('asks by Hill formula with spaces, exact element set or id', () => {
    expect(searchParams({ formula: 'Fe2O3' })).to.deep.equal({ formula: 'Fe2 O3' });
    expect(searchParams({ formula: 'O4H8C9' })).to.deep.equal({ formula: 'C9 H8 O4' });
    expect(searchParams({ elements: ['Li', 'Fe', 'O'] })).to.deep.equal({ el1: 'Li', el2: 'Fe', el3: 'O', strictmin: '3', strictmax: '3' });
    expect(searchParams({ codId: '1515581' })).to.deep.equal({ id: '1515581' });
    expect([hillFormula('NaCl'), hillFormula('CH4'), hillFormula('Fe2(SO4)3'), compactFormula('- C36 H32 O16 -')]).to.deep.equal([
      'Cl Na',
      'C H4',
      undefined,
      'C36H32O16',
    ]);
  });

  it('reads an empty answer as no entries', () => {
    expect(parseEntries(null)).to.deep.equal([]);
    expect(parseEntries([])).to.deep.equal([]);
  });
});

describe('materials-project connector (hand-made summary documents in the documented format: no recording exists)', () => {
  it('reads computed energies, symmetry and the lattice of the structure; a missing structure leaves the lattice out', () => {
    expect(parseSummary(JSON.parse(fixture('materials-project', 'hand-made-summary-formula-Fe2O3.json')))).to.deep.equal([
      {
        materialId: 'mp-19770',
        formula: 'Fe2O3',
        elements: ['Fe', 'O'],
        bandGapEv: 1.9504,
        formationEnergyPerAtomEv: -1.7184,
        energyAboveHullEv: 0,
        isStable: true,
        theoretical: false,
        spaceGroupSymbol: 'R-3c',
        spaceGroupNumber: 167,
        crystalSystem: 'trigonal',
        lattice: { a: 5.4274, b: 5.4274, c: 5.4274, alpha: 55.1, beta: 55.1, gamma: 55.1, volume: 101.52 },
        pageUrl: 'https://next-gen.materialsproject.org/materials/mp-19770',
      },
      {
        materialId: 'mp-715572',
        formula: 'Fe2O3',
        elements: ['Fe', 'O'],
        bandGapEv: 0,
        formationEnergyPerAtomEv: -1.5731,
        energyAboveHullEv: 0.1453,
        isStable: false,
        theoretical: true,
        spaceGroupSymbol: 'P2_1/c',
        spaceGroupNumber: 14,
        crystalSystem: 'monoclinic',
        lattice: undefined,
        pageUrl: 'https://next-gen.materialsproject.org/materials/mp-715572',
      },
    ]);
  });

  it('gives the reason of an error body', () => {
    expect(reasonFromBody('application/json', fixture('materials-project', 'hand-made-error-401-invalid-key.json'))).to.equal(
      'Invalid or missing API key. Get a key at https://next-gen.materialsproject.org/api',
    );
    expect([crystalSystemOf(1), crystalSystemOf(230), crystalSystemOf(0)]).to.deep.equal(['triclinic', 'cubic', undefined]);
  });
});
