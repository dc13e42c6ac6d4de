import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { down, expectCharged, expectNotCharged, lifeHarness, recorded } from './support.ts';

describeOnEachEngine('search_clinical_trials over HTTP', (engine) => {
  const life = lifeHarness(engine);

  it("asks API v2 with the registry's status and phase values and returns records of part 2.3", async () => {
    life.on('clinicaltrials', '/studies', recorded('clinicaltrials', 'studies-search-cond-melanoma-status-recruiting-pagesize3-fields.json'));
    const result = await life.charged('search_clinical_trials', { condition: 'melanoma', status: 'recruiting', phase: 2, country: 'United States', limit: 3 });
    expectCharged(result);
    expect(Object.fromEntries(life.hits('clinicaltrials', '/studies')[0]!.query)).to.deep.equal({
      'query.cond': 'melanoma',
      'query.locn': 'United States',
      'filter.overallStatus': 'RECRUITING',
      'filter.advanced': 'AREA[Phase]PHASE2',
      countTotal: 'true',
      pageSize: '3',
      format: 'json',
    });
    const [first, second] = result.answer.body.records;
    expect({ ...first, retrievedAt: undefined }).to.deep.equal({
      id: 'clinicaltrials:NCT06970236',
      type: 'trial',
      source: 'clinicaltrials',
      title: 'Resistance Exercise in Patients With Ocular Melanoma',
      url: 'https://clinicaltrials.gov/study/NCT06970236',
      license: 'public domain (US government)',
      attribution: 'Source: ClinicalTrials.gov, U.S. National Library of Medicine',
      retrievedAt: undefined,
      data: {
        nct_id: 'NCT06970236',
        title: 'Resistance Exercise in Patients With Ocular Melanoma',
        status: 'recruiting',
        phases: ['not_applicable'],
        study_type: 'interventional',
        conditions: ['Ocular Melanoma'],
        interventions: [{ name: 'Exercise' }],
        sponsor: 'University of Valencia',
        enrollment: 40,
        start_date: '2025-02-01',
        completion_date: '2026-12',
        registry_url: 'https://clinicaltrials.gov/study/NCT06970236',
      },
    });
    expect([second.data.nct_id, second.data.phases, second.data.interventions.length]).to.deep.equal(['NCT04114136', ['phase_2'], 3]);
    expect(result.answer.body.summary).to.equal('3 clinical trials of 480 for condition "melanoma", phase 2, status recruiting, a site in United States.');
  });

  it('follows nextPageToken up to limit; later pages are asked without countTotal', async () => {
    life.on(
      'clinicaltrials',
      '/studies',
      recorded('clinicaltrials', 'studies-search-intr-keytruda-pagesize3-fields.json'),
      recorded('clinicaltrials', 'studies-search-cond-phelan-mcdermid-page2-via-pagetoken.json'),
    );
    const result = await life.charged('search_clinical_trials', { intervention: 'Keytruda', limit: 5 });
    expectCharged(result);
    expect(result.answer.body.records.map((record: { id: string }) => record.id)).to.deep.equal([
      'clinicaltrials:NCT05431270',
      'clinicaltrials:NCT03590054',
      'clinicaltrials:NCT04795661',
      'clinicaltrials:NCT05187377',
      'clinicaltrials:NCT03836300',
    ]);
    const [page1, page2] = life.hits('clinicaltrials', '/studies');
    expect([
      page1!.query.get('pageSize'),
      page1!.query.get('countTotal'),
      page2!.query.get('pageSize'),
      page2!.query.get('countTotal'),
      page2!.query.get('pageToken'),
    ]).to.deep.equal(['5', 'true', '2', null, 'ZVt07cGHkvI2wRk2CJf6_LLq14bEL8swd7KrgP4YnzmVtA']);
  });

  it('an NCT id alone is fetched as that one study', async () => {
    life.on('clinicaltrials', '/studies/NCT02210780', recorded('clinicaltrials', 'study-NCT02210780-full-record-with-results.json'));
    const result = await life.charged('search_clinical_trials', { query: 'nct02210780' });
    expectCharged(result);
    const [record] = result.answer.body.records;
    expect([record.id, record.data.sponsor, record.data.primary_outcomes[0].time_frame, record.data.interventions[0]]).to.deep.equal([
      'clinicaltrials:NCT02210780',
      'Regeneron Pharmaceuticals',
      'Week 16',
      { name: 'Dupilumab', intervention_type: 'drug' },
    ]);
  });

  it('is a 502, not charged, when the registry fails (its only source, so there is no partial answer)', async () => {
    life.on('clinicaltrials', '/studies', down);
    const result = await life.charged('search_clinical_trials', { condition: 'melanoma' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal('no source answered: clinicaltrials answered HTTP 503: service unavailable');
  });

  it('rejects a call with no criterion, phase 5 and an unknown status, naming the field', async () => {
    const none = await life.charged('search_clinical_trials', { limit: 5 });
    expectNotCharged(none, 400, 'invalid_input');
    expect(none.answer.body.error.message).to.equal('condition, intervention, query, country, phase, status: give at least one of them');
    const phase5 = await life.charged('search_clinical_trials', { condition: 'melanoma', phase: 5 });
    expectNotCharged(phase5, 400, 'invalid_input');
    expect(phase5.answer.body.error.message).to.match(/^phase: /);
    const status = await life.charged('search_clinical_trials', { condition: 'melanoma', status: 'Recruiting' });
    expectNotCharged(status, 400, 'invalid_input');
    expect(status.answer.body.error.message).to.match(/^status: /);
    expect(life.fake.hits).to.have.length(0);
  });
});
