import { expect } from 'chai';
import { fixture } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { down, expectCharged, expectNotCharged, lifeHarness, own, recorded } from './support.ts';

describeOnEachEngine('lookup_drug over HTTP', (engine) => {
  const life = lifeHarness(engine);
  const noMatch = () => recorded('openfda', 'error-404-no-matches-found.json', { status: 404 });

  function serveChembl(): void {
    life.on('chembl', '/molecule.json', own('chembl', 'hand-made-molecule-search-pembrolizumab.json'));
    life.on('chembl', '/mechanism.json', recorded('chembl', 'mechanism-molecule-CHEMBL3137343-pembrolizumab.json'));
    life.on('chembl', '/target/CHEMBL3307223.json', own('chembl', 'hand-made-target-CHEMBL3307223.json'));
  }

  it('joins ChEMBL molecule facts, mechanism and target with openFDA report counts (labelled as such) and label highlights', async () => {
    serveChembl();
    life.on('openfda', '/drug/event.json', recorded('openfda', 'event-count-reactionmeddrapt-pembrolizumab-limit1.json'));
    life.on('openfda', '/drug/label.json', own('openfda', 'hand-made-label-pembrolizumab.json'));
    const result = await life.charged('lookup_drug', { name: 'pembrolizumab' });
    expectCharged(result);
    const [record] = result.answer.body.records;
    expect({ ...record, retrievedAt: undefined }).to.deep.equal({
      id: 'chembl:CHEMBL3137343',
      type: 'drug',
      source: 'chembl',
      title: 'PEMBROLIZUMAB',
      url: 'https://www.ebi.ac.uk/chembl/explore/compound/CHEMBL3137343',
      license: 'CC-BY-SA-3.0',
      attribution: 'ChEMBL (EMBL-EBI), CC BY-SA 3.0',
      retrievedAt: undefined,
      data: {
        chembl_id: 'CHEMBL3137343',
        name: 'PEMBROLIZUMAB',
        max_phase: 4,
        molecule_type: 'Antibody',
        mechanisms: [
          {
            mechanism_of_action: 'Programmed cell death protein 1 inhibitor',
            action_type: 'INHIBITOR',
            target_chembl_id: 'CHEMBL3307223',
            target_name: 'Programmed cell death protein 1',
            target_type: 'SINGLE PROTEIN',
            target_organism: 'Homo sapiens',
            uniprot_accessions: ['Q15116'],
          },
        ],
        adverse_events: { count_basis: 'spontaneous_report_counts', terms: [{ term: 'MALIGNANT NEOPLASM PROGRESSION', report_count: 12016 }] },
        label: {
          indications:
            '1 INDICATIONS AND USAGE Hand-made test text: KEYTRUDA is a programmed death receptor-1 (PD-1)-blocking antibody indicated for the treatment of several cancers.',
          has_boxed_warning: false,
          effective_date: '2025-09-18',
          set_id: '9333c79b-d487-4538-a9f0-71b91a02b287',
        },
      },
    });
    expect(result.answer.body.summary).to.equal(
      'PEMBROLIZUMAB: molecule facts, 1 mechanism, top 1 adverse-event terms by spontaneous report count (not incidence or risk), label highlights.',
    );
    expect(life.hits('chembl', '/molecule.json')[0]!.query.get('pref_name__iexact')).to.equal('pembrolizumab');
    expect(life.hits('chembl', '/mechanism.json')[0]!.query.get('molecule_chembl_id')).to.equal('CHEMBL3137343');
    const event = life.hits('openfda', '/drug/event.json')[0]!.query;
    expect([event.get('search'), event.get('count'), event.get('limit')]).to.deep.equal([
      '(patient.drug.openfda.generic_name:"pembrolizumab" OR patient.drug.openfda.brand_name:"pembrolizumab" OR patient.drug.medicinalproduct:"pembrolizumab")',
      'patient.reaction.reactionmeddrapt.exact',
      '10',
    ]);
  });

  it('a ChEMBL id is looked up first; openFDA is then asked for its preferred name; include limits the parts', async () => {
    life.on('chembl', '/molecule/CHEMBL3137343.json', json(JSON.parse(fixture('chembl', 'hand-made-molecule-search-pembrolizumab.json')).molecules[0]));
    life.on('openfda', '/drug/label.json', own('openfda', 'hand-made-label-with-boxed-warning.json'));
    const result = await life.charged('lookup_drug', { name: 'chembl3137343', include: ['label'] });
    expectCharged(result);
    const data = result.answer.body.records[0].data;
    expect([data.mechanisms, data.adverse_events, data.label.has_boxed_warning]).to.deep.equal([undefined, undefined, true]);
    expect(life.hits('openfda', '/drug/label.json')[0]!.query.get('search')).to.equal(
      'openfda.generic_name:"PEMBROLIZUMAB" OR openfda.brand_name:"PEMBROLIZUMAB"',
    );
    expect([life.hits('chembl', '/mechanism.json').length, life.hits('openfda', '/drug/event.json').length]).to.deep.equal([0, 0]);
  });

  it('openFDA\'s 404 "No matches found!" is zero reports and no label, not a failure', async () => {
    serveChembl();
    life.on('openfda', '/drug/event.json', noMatch());
    life.on('openfda', '/drug/label.json', noMatch());
    const result = await life.charged('lookup_drug', { name: 'pembrolizumab' });
    expectCharged(result);
    const data = result.answer.body.records[0].data;
    expect([data.adverse_events, data.label, data.mechanisms.length]).to.deep.equal([undefined, undefined, 1]);
  });

  it('when openFDA fails, the ChEMBL record still comes: partial, failedSources names the missing part', async () => {
    serveChembl();
    life.on('openfda', '/drug/event.json', down);
    life.on('openfda', '/drug/label.json', down);
    const result = await life.charged('lookup_drug', { name: 'pembrolizumab' });
    expectCharged(result, ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id']);
    expect(result.answer.body.failedSources).to.deep.equal([
      { source: 'openfda', error: 'openfda answered HTTP 503: service unavailable; missing from the answer: adverse-event report counts' },
    ]);
    expect(result.answer.body.records[0].data.chembl_id).to.equal('CHEMBL3137343');
  });

  it('is a 502, not charged, when ChEMBL and openFDA both fail', async () => {
    life.on('chembl', '/molecule.json', down);
    life.on('openfda', '/drug/event.json', down);
    life.on('openfda', '/drug/label.json', down);
    expectNotCharged(await life.charged('lookup_drug', { name: 'pembrolizumab' }));
  });

  it('a small molecule carries its formula and molecular weight (ChEMBL sends the weight as a string)', async () => {
    life.on('chembl', '/molecule.json', own('chembl', 'hand-made-molecule-search-aspirin.json'));
    life.on('openfda', '/drug/label.json', noMatch());
    const result = await life.charged('lookup_drug', { name: 'aspirin', include: ['label'] });
    expectCharged(result);
    expect(result.answer.body.records[0].data).to.include({ formula: 'C9H8O4', molecular_weight: 180.16 });
  });

  it('rejects an unknown include part, naming the field', async () => {
    const result = await life.charged('lookup_drug', { name: 'aspirin', include: ['targets', 'pharmacokinetics'] });
    expectNotCharged(result, 400, 'invalid_input');
    expect(result.answer.body.error.message).to.match(/^include\.1: /);
  });
});
