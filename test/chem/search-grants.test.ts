import { expect } from 'chai';
import { recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { down, expectCharged, expectNotCharged, sourcesHarness, own, recorded } from '../life/support.ts';

const PARTIAL = ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id'];

describeOnEachEngine('search_grants over HTTP', (engine) => {
  const grants = sourcesHarness(engine, ['nih', 'nsf', 'ukri'] as const);

  function serveAll(): void {
    grants.on('nih', '/projects/search', own('nih', 'hand-made-v2-projects-search-malaria-vaccine.json'));
    grants.on('nsf', '/awards.json', recorded('nsf', 'awards-keyword-qualitative-2019-offset1-first3.json'));
    grants.on('ukri', '/search/project', own('ukri', 'hand-made-search-project-malaria-vaccine.json'));
  }

  it('interleaves one record per project from the three funders: ISO dates, amounts as numbers with their currency', async () => {
    serveAll();
    const result = await grants.charged('search_grants', { query: 'malaria vaccine', limit: 4 });
    expectCharged(result);
    const records = result.answer.body.records;
    expect(records.map((record: any) => record.id)).to.deep.equal(['nih:10912345', 'nsf:1851304', 'ukri:MR/X000001/1', 'nih:10800002']);
    expect({ ...records[0], retrievedAt: undefined }).to.deep.equal({
      id: 'nih:10912345',
      type: 'grant',
      source: 'nih',
      title: 'Hand-made test project: durable immunity of a blood-stage malaria vaccine',
      url: 'https://reporter.nih.gov/project-details/10912345',
      license: 'public domain (US government)',
      attribution: 'Source: NIH RePORTER (reporter.nih.gov)',
      retrievedAt: undefined,
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
    expect({ ...records[1], retrievedAt: undefined, data: { ...records[1].data, abstract: records[1].data.abstract.slice(0, 30) } }).to.deep.equal({
      id: 'nsf:1851304',
      type: 'grant',
      source: 'nsf',
      title: 'Social Norms, Social Boundaries and Inequality',
      url: 'https://www.nsf.gov/awardsearch/showAward?AWD_ID=1851304',
      license: 'public domain (US government)',
      attribution: 'Source: National Science Foundation Award Search',
      retrievedAt: undefined,
      data: {
        project_number: '1851304',
        funder: 'nsf',
        program: 'Sociology',
        pi_name: 'Andrea Voyer',
        organization: 'University of Connecticut',
        start_date: '2019-02-01',
        end_date: '2022-01-31',
        amount: 216722,
        currency: 'USD',
        abstract: 'Social norms, those informal u',
      },
    });
    expect({ ...records[2], retrievedAt: undefined }).to.deep.equal({
      id: 'ukri:MR/X000001/1',
      type: 'grant',
      source: 'ukri',
      title: 'Hand-made test project: a transmission-blocking malaria vaccine',
      url: 'https://gtr.ukri.org/projects?ref=MR%2FX000001%2F1',
      license: 'OGL-UK-3.0',
      attribution: 'Contains public sector information licensed under the Open Government Licence v3.0 (UKRI Gateway to Research)',
      retrievedAt: undefined,
      data: {
        project_number: 'MR/X000001/1',
        funder: 'ukri',
        funding_body: 'MRC',
        program: 'Research Grant',
        pi_name: 'Clara J Example',
        organization: 'University of Oxford',
        organization_city: 'Oxford',
        organization_country: 'United Kingdom',
        start_date: '2023-04-01',
        end_date: '2025-03-31',
        amount: 1250000,
        currency: 'GBP',
        abstract: 'Hand-made test abstract for a UKRI project.',
      },
    });
    // The second fiscal year of NIH's R01AI123456 is the same project: left out. A record without an amount has no currency either.
    expect(records[3].data).to.deep.equal({
      project_number: '1R21AI654321-01',
      funder: 'nih',
      program: 'R21',
      pi_name: 'DOE, JANE',
      organization: 'EMORY UNIVERSITY',
      fiscal_year: 2024,
    });
    expect(result.answer.body.summary).to.equal('4 funded projects for "malaria vaccine" from nih, nsf, ukri.');
    const nihHit = grants.hits('nih', '/projects/search')[0]!;
    expect([
      nihHit.method,
      nihHit.headers['content-type'],
      JSON.parse(nihHit.body).criteria.advanced_text_search.search_text,
      JSON.parse(nihHit.body).limit,
    ]).to.deep.equal(['POST', 'application/json', 'malaria vaccine', 4]);
    const ukriHit = grants.hits('ukri', '/search/project')[0]!;
    expect([ukriHit.headers.accept, ukriHit.query.get('term'), ukriHit.query.get('fetchSize')]).to.deep.equal(['application/json', 'malaria vaccine', '25']);
    expect(grants.hits('nsf', '/awards.json')).to.have.length(1); // a page shorter than 25 is the last
  });

  it('funder asks only that funder; PI, organisation and years are pushed down (NSF dates as mm/dd/yyyy, NIH fiscal years)', async () => {
    serveAll();
    expectCharged(
      await grants.charged('search_grants', {
        query: 'qualitative',
        funder: 'nsf',
        pi_name: 'Voyer',
        organization: 'University of Connecticut',
        year_from: 2019,
        year_to: 2019,
      }),
    );
    const nsfQuery = grants.hits('nsf', '/awards.json')[0]!.query;
    expect([
      nsfQuery.get('keyword'),
      nsfQuery.get('pdPIName'),
      nsfQuery.get('awardeeName'),
      nsfQuery.get('startDateStart'),
      nsfQuery.get('startDateEnd'),
    ]).to.deep.equal(['qualitative', 'Voyer', 'University of Connecticut', '01/01/2019', '12/31/2019']);
    expect([grants.hits('nih', '/projects/search').length, grants.hits('ukri', '/search/project').length]).to.deep.equal([0, 0]);
    expectCharged(await grants.charged('search_grants', { query: 'malaria', funder: 'nih', year_from: 2023, year_to: 2024, pi_name: 'Sample' }));
    expect(JSON.parse(grants.hits('nih', '/projects/search')[0]!.body).criteria).to.deep.include({
      fiscal_years: [2023, 2024],
      pi_names: [{ any_name: 'Sample' }],
    });
  });

  it('NSF pages of 25 are followed until a short page', async () => {
    const [award] = JSON.parse(recording('nsf', 'awards-keyword-qualitative-2019-offset1-first3.json')).response.award;
    const fullPage = { response: { award: Array.from({ length: 25 }, (_, index) => ({ ...award, id: String(1851304 + index) })) } };
    grants.on('nsf', '/awards.json', json(fullPage), recorded('nsf', 'awards-keyword-qualitative-2019-offset26-first3.json'));
    const result = await grants.charged('search_grants', { query: 'qualitative', funder: 'nsf', limit: 30 });
    expectCharged(result);
    expect([result.answer.body.records.length, result.answer.body.records.at(-1).id]).to.deep.equal([28, 'nsf:1851433']);
    expect(grants.hits('nsf', '/awards.json').map((hit) => [hit.query.get('offset'), hit.query.get('rpp')])).to.deep.equal([
      ['1', '25'],
      ['26', '25'],
    ]);
  });

  it('when one funder fails the others still answer: partial, with the reason NSF sent with status 200', async () => {
    serveAll();
    grants.on('nsf', '/awards.json', own('nsf', 'hand-made-service-notification-error.json'));
    const result = await grants.charged('search_grants', { query: 'malaria vaccine' });
    expectCharged(result, PARTIAL);
    expect(result.answer.body.failedSources).to.deep.equal([
      { source: 'nsf', error: 'nsf answered with an error: Invalid date format for startDateStart. Expected format is mm/dd/yyyy.' },
    ]);
    expect(result.answer.body.records.map((record: any) => record.source)).to.deep.equal(['nih', 'ukri', 'nih', 'ukri']);
    // The error body is not cached: the next call asks NSF again.
    expectCharged(await grants.charged('search_grants', { query: 'malaria vaccine' }), PARTIAL);
    expect(grants.hits('nsf', '/awards.json')).to.have.length(2);
  });

  it('is a 502, not charged, when every funder fails', async () => {
    grants.on('nih', '/projects/search', down);
    grants.on('nsf', '/awards.json', down);
    grants.on('ukri', '/search/project', json({ error: 'hand-made failure' }, { status: 400 }));
    const result = await grants.charged('search_grants', { query: 'malaria vaccine' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal(
      'no source answered: nih answered HTTP 503: service unavailable; nsf answered HTTP 503: service unavailable; ukri answered HTTP 400: hand-made failure',
    );
  });

  it('rejects an unknown funder, a limit over 100 and reversed years, naming the field', async () => {
    for (const [body, pattern] of [
      [{ query: 'x', funder: 'erc' }, /^funder: /],
      [{ query: 'x', limit: 101 }, /^limit: /],
      [{ query: 'x', year_from: 2024, year_to: 2020 }, /year_from/],
    ] as const) {
      const result = await grants.charged('search_grants', body);
      expectNotCharged(result, 400, 'invalid_input');
      expect(result.answer.body.error.message).to.match(pattern);
    }
  });
});
