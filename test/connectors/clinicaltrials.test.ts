import { expect } from 'chai';
import { parseSearch, parseStudy, searchParams } from '../../src/connectors/clinicaltrials.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('clinicaltrials', file));

describeRecordings('clinicaltrials', () => {
  it('reads the melanoma search: studies, totalCount and the next page token', () => {
    const page = parseSearch(read('studies-search-cond-melanoma-status-recruiting-pagesize3-fields.json'));
    expect([page.totalCount, page.nextPageToken, page.studies.map((study) => study.nctId)]).to.deep.equal([
      480,
      'ZVt07cGHkvI2wRk2CJf6_LLq14bEL8swd7KrgP4ZmTmRvvE',
      ['NCT06970236', 'NCT04114136', 'NCT04318717'],
    ]);
    expect(page.studies[1]).to.deep.equal({
      nctId: 'NCT04114136',
      title: 'Anti-PD-1 mAb Plus Metabolic Modulator in Solid Tumor Malignancies',
      status: 'recruiting',
      phases: ['phase_2'],
      studyType: 'interventional',
      conditions: [
        'Melanoma',
        'NSCLC',
        'Hepatocellular Carcinoma',
        'Urothelial Cancer',
        'Gastric Adenocarcinoma',
        'HNSCC',
        'Esophageal Adenocarcinoma',
        'Microsatellite Instability-High Solid Malignant Tumor',
      ],
      interventions: [
        { name: 'Nivolumab or Pembrolizumab (dependent upon approved indication)', intervention_type: undefined },
        { name: 'Metformin', intervention_type: undefined },
        { name: 'Rosiglitazone', intervention_type: undefined },
      ],
      sponsor: 'Dan Zandberg',
      enrollment: 72,
      startDate: '2020-09-14',
      completionDate: '2032-04-30',
      primaryOutcomes: undefined,
    });
    expect(page.studies[0]!.phases).to.deep.equal(['not_applicable']);
  });
  it('maps combined phases and every status of the Keytruda search', () => {
    const page = parseSearch(read('studies-search-intr-keytruda-pagesize3-fields.json'));
    expect(page.studies.map((study) => [study.nctId, study.status, study.phases])).to.deep.equal([
      ['NCT05431270', 'recruiting', ['phase_1', 'phase_2']],
      ['NCT03590054', 'completed', ['phase_1']],
      ['NCT04795661', 'active_not_recruiting', ['phase_2']],
    ]);
  });
  it('reads a later page, which has no totalCount', () => {
    const page = parseSearch(read('studies-search-cond-phelan-mcdermid-page2-via-pagetoken.json'));
    expect([page.totalCount, page.studies.length, page.studies[1]!.status]).to.deep.equal([undefined, 5, 'enrolling_by_invitation']);
  });
  it('reads an observational study without phases', () => {
    const study = parseStudy(read('study-NCT06604689-fields.json'))!;
    expect([study.studyType, study.phases, study.enrollment, study.sponsor]).to.deep.equal(['observational', undefined, 800, 'Fudan University']);
  });
  it('reads the full record: intervention types, primary outcomes without CommonMark escapes', () => {
    const study = parseStudy(read('study-NCT02210780-full-record-with-results.json'))!;
    expect(study.interventions).to.deep.equal([
      { name: 'Dupilumab', intervention_type: 'drug' },
      { name: 'Placebo', intervention_type: 'drug' },
    ]);
    expect(study.primaryOutcomes).to.have.length(1);
    expect(study.primaryOutcomes![0]!.time_frame).to.equal('Week 16');
    expect(study.primaryOutcomes![0]!.outcome_description).to.contain('pre-vaccination titers of <0.1 IU/ml');
    expect([study.status, study.enrollment, study.startDate, study.completionDate]).to.deep.equal(['completed', 194, '2014-08-05', '2015-09-15']);
  });
});

describe('clinicaltrials connector', () => {
  it("sends the spec's status and phase as the registry's values (API v2)", () => {
    expect(searchParams({ condition: 'melanoma', status: 'active_not_recruiting', phase: 3, country: 'Germany' }, 10)).to.deep.equal({
      'query.cond': 'melanoma',
      'query.intr': undefined,
      'query.term': undefined,
      'query.locn': 'Germany',
      'filter.overallStatus': 'ACTIVE_NOT_RECRUITING',
      'filter.advanced': 'AREA[Phase]PHASE3',
      countTotal: 'true',
      pageSize: 10,
      pageToken: undefined,
      format: 'json',
    });
  });
});
