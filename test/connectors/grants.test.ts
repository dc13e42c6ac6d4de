import { expect } from 'chai';
import * as nih from '../../src/connectors/nih.ts';
import * as nsf from '../../src/connectors/nsf.ts';
import * as ukri from '../../src/connectors/ukri.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

describeRecordings('nih', () => {
  it('reads the flat v1 answer of 2022: trimmed PI name, ISO dates, amount in USD', () => {
    const grants = nih.parseProjects(JSON.parse(recording('nih', 'v1-projects-search-advanced-text-qualitative-data-offset2500-first3.json')));
    expect(grants.map((grant) => ({ ...grant, data: { ...grant.data, abstract: grant.data.abstract?.slice(0, 60) } }))).to.deep.equal([
      {
        nativeId: '1R03HD045129-01',
        title: 'WAR, FORCED MIGRATION, AND HIV/AIDS RISKS IN ANGOLA',
        url: undefined,
        coreProject: undefined,
        data: {
          project_number: '1R03HD045129-01',
          funder: 'nih',
          funding_body: undefined,
          program: undefined,
          pi_name: 'AGADJANIAN, VICTOR',
          pi_names: undefined,
          organization: 'ARIZONA STATE UNIVERSITY-TEMPE CAMPUS',
          organization_city: undefined,
          organization_country: undefined,
          start_date: '2004-01-01',
          end_date: '2005-12-31',
          fiscal_year: 2004,
          amount: 74750,
          currency: 'USD',
          abstract: 'DESCRIPTION (provided by investigator): In the growing body ',
        },
      },
      {
        nativeId: '5R01DA014232-04',
        title: 'Club Drugs: Ecstasy Use Patterns and HIV Risk',
        url: undefined,
        coreProject: undefined,
        data: {
          project_number: '5R01DA014232-04',
          funder: 'nih',
          funding_body: undefined,
          program: undefined,
          pi_name: 'STERK, CLAIRE E',
          pi_names: undefined,
          organization: 'EMORY UNIVERSITY',
          organization_city: undefined,
          organization_country: undefined,
          start_date: '2001-09-30',
          end_date: '2006-08-31',
          fiscal_year: 2004,
          amount: 439236,
          currency: 'USD',
          abstract: 'DESCRIPTION (provided by applicant): The purpose of this fou',
        },
      },
      {
        nativeId: '2R01DA010425-09',
        title: 'An Intervention for Migrant Puerto Rican Drug Users',
        url: undefined,
        coreProject: undefined,
        data: {
          project_number: '2R01DA010425-09',
          funder: 'nih',
          funding_body: undefined,
          program: undefined,
          pi_name: 'DEREN, SHERRY',
          pi_names: undefined,
          organization: 'NATIONAL DEVELOPMENT AND RESEARCH INSTITUTES, INC.',
          organization_city: undefined,
          organization_country: undefined,
          start_date: '1996-09-01',
          end_date: '2009-04-30',
          fiscal_year: 2004,
          amount: 636291,
          currency: 'USD',
          abstract: 'DESCRIPTION (provided by applicant): This proposal is for a ',
        },
      },
    ]);
  });
});

describe('nih connector', () => {
  it('asks with text, PI, organisation and fiscal-year criteria', () => {
    expect(
      nih.searchBody({ query: 'malaria vaccine', piName: 'Sample', organization: 'Johns Hopkins', yearFrom: 2022, yearTo: 2024, limit: 10 }),
    ).to.deep.equal({
      criteria: {
        advanced_text_search: { operator: 'and', search_field: 'projecttitle,terms,abstracttext', search_text: 'malaria vaccine' },
        pi_names: [{ any_name: 'Sample' }],
        org_names: ['Johns Hopkins'],
        fiscal_years: [2022, 2023, 2024],
        exclude_subprojects: true,
      },
      include_fields: nih.INCLUDE_FIELDS,
      offset: 0,
      limit: 10,
    });
    expect(nih.fiscalYears({ yearFrom: 2024 }, new Date('2025-06-01T00:00:00Z'))).to.deep.equal([2024, 2025, 2026]);
    expect(nih.fiscalYears({})).to.equal(undefined);
  });

  it('reads the nested v2 answer (hand-made in the documented format): contact PI first, all PIs, links from appl_id', () => {
    const [first, , third] = nih.parseProjects(JSON.parse(fixture('nih', 'hand-made-v2-projects-search-malaria-vaccine.json')));
    expect(first).to.deep.equal({
      nativeId: '10912345',
      title: 'Hand-made test project: durable immunity of a blood-stage malaria vaccine',
      url: 'https://reporter.nih.gov/project-details/10912345',
      coreProject: 'R01AI123456',
      data: {
        project_number: '5R01AI123456-04',
        funder: 'nih',
        funding_body: 'NIAID',
        program: 'R01',
        pi_name: 'Ben Sample',
        pi_names: ['Ada Example', 'Ben Sample'],
        organization: 'JOHNS HOPKINS UNIVERSITY',
        organization_city: 'BALTIMORE',
        organization_country: 'UNITED STATES',
        start_date: '2021-03-01',
        end_date: '2026-02-28',
        fiscal_year: 2024,
        amount: 652310,
        currency: 'USD',
        abstract: 'Hand-made test abstract. It spans two lines.',
      },
    });
    expect([third!.data.amount, third!.data.currency, third!.data.abstract, third!.data.pi_name, third!.url]).to.deep.equal([
      undefined,
      undefined,
      undefined,
      'DOE, JANE',
      'https://reporter.nih.gov/project-details/10800002',
    ]);
  });
});

describeRecordings('nsf', () => {
  it('reads string amounts and mm/dd/yyyy dates of both recorded pages', () => {
    const [first] = nsf.parseAwards(JSON.parse(recording('nsf', 'awards-keyword-qualitative-2019-offset1-first3.json')));
    expect({ ...first, data: { ...first!.data, abstract: first!.data.abstract?.slice(0, 40) } }).to.deep.equal({
      nativeId: '1851304',
      title: 'Social Norms, Social Boundaries and Inequality',
      url: 'https://www.nsf.gov/awardsearch/showAward?AWD_ID=1851304',
      data: {
        project_number: '1851304',
        funder: 'nsf',
        program: 'Sociology',
        pi_name: 'Andrea Voyer',
        organization: 'University of Connecticut',
        organization_city: undefined,
        start_date: '2019-02-01',
        end_date: '2022-01-31',
        amount: 216722,
        currency: 'USD',
        abstract: 'Social norms, those informal understandi',
      },
    });
    const second = nsf.parseAwards(JSON.parse(recording('nsf', 'awards-keyword-qualitative-2019-offset26-first3.json')));
    expect(second.map((grant) => [grant.data.project_number, grant.data.amount, grant.data.start_date, grant.data.end_date])).to.deep.equal([
      ['1845771', 513238, '2019-07-01', '2020-05-31'],
      ['1855477', 49858, '2019-02-01', '2019-12-31'],
      ['1851433', 15096, '2019-02-01', '2021-12-31'],
    ]);
  });
});

describe('nsf connector', () => {
  it("an error notice sent with status 200 is a failure keeping NSF's reason (hand-made body)", () => {
    expect(() => nsf.parseAwards(JSON.parse(fixture('nsf', 'hand-made-service-notification-error.json')))).to.throw(
      'nsf answered with an error: Invalid date format for startDateStart. Expected format is mm/dd/yyyy.',
    );
  });

  it('pushes PI, awardee and start years down as mm/dd/yyyy; no hits is an empty list', () => {
    expect(
      nsf.searchParams({ query: 'qualitative', piName: 'Voyer', organization: 'University of Connecticut', yearFrom: 2019, yearTo: 2020, limit: 10 }, 26),
    ).to.deep.equal({
      keyword: 'qualitative',
      pdPIName: 'Voyer',
      awardeeName: 'University of Connecticut',
      startDateStart: '01/01/2019',
      startDateEnd: '12/31/2020',
      printFields: nsf.PRINT_FIELDS.join(','),
      rpp: 25,
      offset: 26,
    });
    expect(nsf.parseAwards({ response: {} })).to.deep.equal([]);
  });
});

describe('ukri connector (hand-made search result in the documented format: no recording exists)', () => {
  const grants = () => ukri.parseProjects(JSON.parse(fixture('ukri', 'hand-made-search-project-malaria-vaccine.json')));

  it('reads fund amounts in GBP and epoch-millisecond dates as UK calendar dates', () => {
    expect(grants()).to.deep.equal([
      {
        nativeId: 'MR/X000001/1',
        title: 'Hand-made test project: a transmission-blocking malaria vaccine',
        url: 'https://gtr.ukri.org/projects?ref=MR%2FX000001%2F1',
        data: {
          project_number: 'MR/X000001/1',
          funder: 'ukri',
          funding_body: 'MRC',
          program: 'Research Grant',
          pi_name: 'Clara J Example',
          pi_names: undefined,
          organization: 'University of Oxford',
          organization_city: 'Oxford',
          organization_country: 'United Kingdom',
          start_date: '2023-04-01',
          end_date: '2025-03-31',
          amount: 1250000,
          currency: 'GBP',
          abstract: 'Hand-made test abstract for a UKRI project.',
        },
      },
      {
        nativeId: '2890123',
        title: 'Hand-made test studentship without an abstract',
        url: 'https://gtr.ukri.org/projects?ref=2890123',
        data: {
          project_number: '2890123',
          funder: 'ukri',
          funding_body: 'BBSRC',
          program: 'Studentship',
          pi_name: undefined,
          pi_names: undefined,
          organization: 'Imperial College London',
          organization_city: undefined,
          organization_country: undefined,
          start_date: '2021-10-01',
          end_date: undefined,
          amount: undefined,
          currency: undefined,
          abstract: undefined,
        },
      },
    ]);
    expect(ukri.ukDate(1522537200000)).to.equal('2018-04-01');
  });

  it('applies the PI, organisation and year filters GtR cannot take', () => {
    const [project, studentship] = grants();
    const search = { query: 'x', limit: 10 };
    expect([ukri.keeps(project!, { ...search, piName: 'example' }), ukri.keeps(studentship!, { ...search, piName: 'example' })]).to.deep.equal([true, false]);
    expect([
      ukri.keeps(project!, { ...search, organization: 'oxford' }),
      ukri.keeps(project!, { ...search, yearFrom: 2024 }),
      ukri.keeps(studentship!, { ...search, yearTo: 2021 }),
    ]).to.deep.equal([true, false, true]);
  });
});
