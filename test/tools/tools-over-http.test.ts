import { expect } from 'chai';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { describeRecordings, fixture, recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { fakeSourceEnv, nullPaths } from './support.ts';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describeOnEachEngine('the first five real tools over HTTP', (engine) => {
  let fake: FakeUpstream;
  let server: TestServer;
  before(async () => {
    fake = await startFakeUpstream();
    server = await startServer(engine.db, { env: fakeSourceEnv(fake.url) });
  });
  after(async () => {
    await server.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  /** Calls a tool with a fresh account of 10 credits; returns the answer and the balance after it. */
  async function charged(tool: string, body: unknown) {
    const caller = await newCaller(engine.db, 10);
    const answer = await call(server.baseUrl, `/api/v1/${tool}`, { method: 'POST', key: caller.key, body });
    return { answer, balance: await getBalance(engine.db, caller.accountId), ledger: await ledgerSum(engine.db, caller.accountId) };
  }

  function expectChargedOnce(result: Awaited<ReturnType<typeof charged>>): void {
    expect(result.answer.status, result.answer.text).to.equal(200);
    expect(Object.keys(result.answer.body)).to.deep.equal(['summary', 'records', 'credits_used', 'call_id']);
    expect([result.answer.body.credits_used, result.balance, result.ledger]).to.deep.equal([1, 9, 9]);
    expect(nullPaths(result.answer.body)).to.deep.equal([]);
    for (const record of result.answer.body.records) expect(record.retrievedAt).to.match(ISO_MS);
  }

  it('search_earthquakes: records of part 2.3 from the USGS answer, default window of 30 days up to now', async () => {
    fake.on('/query', json(fixture('usgs-earthquakes', 'hand-made-two-events.json')));
    const before = Date.now();
    const result = await charged('search_earthquakes', { min_magnitude: 2.5 });
    const after = Date.now();
    expectChargedOnce(result);
    const [first, second] = result.answer.body.records;
    expect(Object.keys(first)).to.deep.equal(['id', 'type', 'source', 'title', 'url', 'license', 'attribution', 'retrievedAt', 'data']);
    expect({ ...first, retrievedAt: undefined }).to.deep.equal({
      id: 'usgs-earthquakes:ci40000001',
      type: 'earthquake',
      source: 'usgs-earthquakes',
      title: 'M 4.6 - 12 km SW of Example, CA',
      url: 'https://earthquake.usgs.gov/earthquakes/eventpage/ci40000001',
      license: 'public domain (US government)',
      attribution: 'Source: U.S. Geological Survey, Earthquake Hazards Program (earthquake.usgs.gov)',
      retrievedAt: undefined,
      data: {
        event_id: 'ci40000001',
        magnitude: 4.6,
        magnitude_type: 'mw',
        time: '2025-12-31T00:00:00.000Z',
        place: '12 km SW of Example, CA',
        latitude: 34.2,
        longitude: -118.5,
        depth_km: 9.5,
        event_url: 'https://earthquake.usgs.gov/earthquakes/eventpage/ci40000001',
      },
    });
    // The event without a magnitude has neither magnitude nor magnitude_type: omitted, not null.
    expect(Object.keys(second.data)).to.deep.equal(['event_id', 'time', 'place', 'latitude', 'longitude', 'depth_km', 'event_url']);
    const query = fake.hits[0]!.query;
    expect(query.get('endtime')).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const [start, end] = [Date.parse(`${query.get('starttime')}Z`), Date.parse(`${query.get('endtime')}Z`)];
    expect(end).to.be.within(before - 1000, after);
    expect(end - start).to.equal(30 * 86_400_000);
    expect([query.get('minmagnitude'), query.get('orderby'), query.get('limit'), query.get('latitude')]).to.deep.equal(['2.5', 'time', '20', null]);
    expect(result.answer.body.summary).to.equal(
      `2 earthquakes of magnitude 2.5 or more from ${new Date(start).toISOString().slice(0, 10)} to ${new Date(end).toISOString().slice(0, 10)}, newest first.`,
    );
  });

  it('search_earthquakes: a circle, given dates (end inclusive) and magnitude order go to the upstream', async () => {
    fake.on('/query', json(fixture('usgs-earthquakes', 'hand-made-two-events.json')));
    const result = await charged('search_earthquakes', {
      latitude: 34.2,
      longitude: -118.5,
      radius_km: 50,
      start: '2025-12-01',
      end: '2025-12-31',
      order: 'magnitude',
      limit: 2,
    });
    expectChargedOnce(result);
    expect(Object.fromEntries(fake.hits[0]!.query)).to.deep.equal({
      format: 'geojson',
      starttime: '2025-12-01T00:00:00',
      endtime: '2025-12-31T23:59:59',
      latitude: '34.2',
      longitude: '-118.5',
      maxradiuskm: '50',
      orderby: 'magnitude',
      limit: '2',
      eventtype: 'earthquake',
    });
    expect(result.answer.body.summary).to.equal('2 earthquakes within 50 km of 34.2, -118.5 from 2025-12-01 to 2025-12-31, largest first.');
  });

  it('search_earthquakes: latitude without longitude is a 400 and nothing is charged', async () => {
    const result = await charged('search_earthquakes', { latitude: 34 });
    expect([result.answer.status, result.answer.body.error.code, result.balance]).to.deep.equal([400, 'invalid_input', 10]);
    expect(fake.hits).to.have.length(0);
  });

  it('lookup_integer_sequence: an A-number becomes an id: lookup; terms stay strings', async () => {
    fake.on('/search', json(fixture('oeis', 'hand-made-bare-array-fibonacci.json')));
    const result = await charged('lookup_integer_sequence', { query: 'A000045' });
    expectChargedOnce(result);
    expect(Object.fromEntries(fake.hits[0]!.query)).to.deep.equal({ q: 'id:A000045', fmt: 'json' });
    const [record] = result.answer.body.records;
    expect({ ...record, retrievedAt: undefined, data: undefined }).to.deep.equal({
      id: 'oeis:A000045',
      type: 'integer_sequence',
      source: 'oeis',
      title: 'A000045: Fibonacci numbers: F(n) = F(n-1) + F(n-2) with F(0) = 0 and F(1) = 1.',
      url: 'https://oeis.org/A000045',
      license: 'CC-BY-SA-4.0',
      attribution: 'OEIS Foundation Inc., The On-Line Encyclopedia of Integer Sequences (oeis.org), CC BY-SA 4.0',
      retrievedAt: undefined,
      data: undefined,
    });
    expect(Object.keys(record.data)).to.deep.equal(['a_number', 'name', 'terms', 'offset', 'formulas', 'keywords', 'comments', 'author', 'references_count']);
    expect([record.data.terms.slice(0, 6), record.data.offset, record.data.keywords[0], record.data.references_count]).to.deep.equal([
      ['0', '1', '1', '2', '3', '5'],
      0,
      'core',
      3211,
    ]);
    expect(result.answer.body.summary).to.equal('1 integer sequence for "A000045".');
  });

  it('lookup_astro_object: one SIMBAD object, the name sent as an escaped ADQL literal', async () => {
    fake.on('/simbad/sim-tap/sync', json(fixture('simbad', 'hand-made-tap-m31.json')));
    const result = await charged('lookup_astro_object', { name: "M 31' OR '1'='1" });
    expectChargedOnce(result);
    const query = fake.hits[0]!.query;
    expect([query.get('REQUEST'), query.get('LANG'), query.get('FORMAT')]).to.deep.equal(['doQuery', 'ADQL', 'json']);
    expect(query.get('QUERY')).to.match(/ WHERE ident\.id = 'M 31'' OR ''1''=''1'$/);
    const [record] = result.answer.body.records;
    expect({ ...record, retrievedAt: undefined }).to.deep.equal({
      id: 'simbad:M 31',
      type: 'astro_object',
      source: 'simbad',
      title: 'M 31',
      url: 'https://simbad.cds.unistra.fr/simbad/sim-id?Ident=M%2031',
      license: 'CDS terms of use (free; cite CDS/SIMBAD)',
      attribution: 'This research has made use of the SIMBAD database, operated at CDS, Strasbourg, France',
      retrievedAt: undefined,
      data: {
        main_id: 'M 31',
        object_type: 'Active Galaxy Nucleus',
        object_type_code: 'AGN',
        ra_deg: 10.684708333333333,
        dec_deg: 41.268750000000004,
        radial_velocity_km_s: -300,
        v_magnitude: 3.44,
        identifiers: ['NGC 224', 'UGC 454', 'NAME Andromeda', 'NAME Andromeda Galaxy'],
      },
    });
    expect(result.answer.body.summary).to.equal("\"M 31' OR '1'='1\" is M 31 (Active Galaxy Nucleus).");
  });

  it('lookup_astro_object: an unknown name is a successful, charged answer with no records', async () => {
    fake.on('/simbad/sim-tap/sync', json({ metadata: [{ name: 'main_id' }], data: [] }));
    const result = await charged('lookup_astro_object', { name: 'No Such Object 123' });
    expectChargedOnce(result);
    expect([result.answer.body.records, result.answer.body.summary]).to.deep.equal([[], 'No object named "No Such Object 123" is known to SIMBAD.']);
  });

  it('search_exoplanets: pscomppars rows, habitable zone as insolation 0.25 to 1.7, no url when the archive gives none', async () => {
    fake.on('/TAP/sync', json(fixture('exoplanet-archive', 'hand-made-pscomppars-trappist.json')));
    const result = await charged('search_exoplanets', { host_star: 'TRAPPIST-1', in_habitable_zone: true, limit: 10 });
    expectChargedOnce(result);
    expect(fake.hits[0]!.query.get('format')).to.equal('json');
    expect(fake.hits[0]!.query.get('query')).to.equal(
      'SELECT TOP 10 pl_name, hostname, discoverymethod, disc_year, pl_orbper, pl_rade, pl_bmasse, pl_eqt, pl_insol, sy_dist, disc_refname FROM pscomppars ' +
        "WHERE hostname = 'TRAPPIST-1' AND pl_insol >= 0.25 AND pl_insol <= 1.7 ORDER BY pl_name",
    );
    const [first, second] = result.answer.body.records;
    expect(Object.keys(first)).to.deep.equal(['id', 'type', 'source', 'title', 'license', 'attribution', 'retrievedAt', 'data']);
    expect([first.id, first.data.insolation_earth, first.data.discovery_reference, first.data.discovery_reference_url]).to.deep.equal([
      'exoplanet-archive:TRAPPIST-1 e',
      0.66,
      'Gillon et al. 2017',
      'https://ui.adsabs.harvard.edu/abs/2017Natur.542..456G/abstract',
    ]);
    expect(Object.keys(second.data)).to.deep.equal([
      'planet_name',
      'host_star',
      'discovery_method',
      'discovery_year',
      'orbital_period_days',
      'radius_earth',
      'insolation_earth',
      'distance_pc',
    ]);
    expect(result.answer.body.summary).to.equal('2 confirmed exoplanets around TRAPPIST-1, in the approximate habitable zone.');
  });

  it('query_gaia: brightest first, source_id exact as a string', async () => {
    fake.on('/sync', json(fixture('gaia', 'hand-made-cone-3rows.json')));
    const result = await charged('query_gaia', { ra: 280, dec: -60, radius_deg: 0.01 });
    expectChargedOnce(result);
    expect(fake.hits[0]!.query.get('QUERY')).to.contain("CIRCLE('ICRS', 280, -60, 0.01)) ORDER BY phot_g_mean_mag ASC");
    expect(fake.hits[0]!.query.get('QUERY')).to.match(/^SELECT TOP 50 /);
    const records = result.answer.body.records;
    expect(records.map((record: { id: string }) => record.id)).to.deep.equal([
      'gaia:6636090339112400000',
      'gaia:6636090334814214528',
      'gaia:6636090339113038336',
    ]);
    expect({ ...records[0], retrievedAt: undefined }).to.deep.equal({
      id: 'gaia:6636090339112400000',
      type: 'gaia_source',
      source: 'gaia',
      title: 'Gaia DR3 6636090339112400000',
      license: 'Gaia archive terms (open and free, credit ESA/Gaia/DPAC)',
      attribution: 'This work has made use of data from the European Space Agency (ESA) mission Gaia, processed by the Gaia DPAC',
      retrievedAt: undefined,
      data: {
        source_id: '6636090339112400000',
        ra_deg: 280.0040000000001,
        dec_deg: -59.99800000000001,
        distance_deg: 0.0021,
        parallax_mas: 1.2345,
        parallax_error_mas: 0.02,
        pm_ra_mas_yr: 3.5,
        pm_dec_mas_yr: -4.25,
        g_mag: 12.25,
        bp_mag: 12.6,
        rp_mag: 11.7,
        radial_velocity_km_s: -15.5,
        teff_k: 5400.5,
      },
    });
    expect(records[2].data).to.deep.equal({ source_id: '6636090339113038336', ra_deg: 279.999, dec_deg: -60.001, distance_deg: 0.0011 });
    expect(result.answer.body.summary).to.equal('3 Gaia DR3 sources within 0.01° of RA 280, Dec -60, brightest first.');
  });

  it('identical concurrent calls reach the upstream once, each is charged; a cached repeat does not reach it and keeps retrievedAt', async () => {
    fake.on('/sync', json(fixture('gaia', 'hand-made-cone-3rows.json'), { delayMs: 150 }));
    const body = { ra: 10, dec: 20, radius_deg: 0.5, limit: 3 };
    const results = await Promise.all([1, 2, 3].map(() => charged('query_gaia', body)));
    results.forEach(expectChargedOnce);
    expect(fake.hits).to.have.length(1);
    const retrievedAt = results[0]!.answer.body.records[0].retrievedAt;
    expect(results.map((result) => result.answer.body.records[0].retrievedAt)).to.deep.equal([retrievedAt, retrievedAt, retrievedAt]);

    const repeat = await charged('query_gaia', body);
    expectChargedOnce(repeat);
    expect(fake.hits).to.have.length(1);
    expect(repeat.answer.body.records[0].retrievedAt).to.equal(retrievedAt);
    expect(repeat.answer.body.call_id).not.to.equal(results[0]!.answer.body.call_id);
  });
  describeRecordings('usgs-earthquakes', () => {
    it('search_earthquakes on the recorded Northridge answer: the exact record', async () => {
      fake.on('/query', json(recording('usgs-earthquakes', 'query-northridge-m6.6-one-result.json')));
      const result = await charged('search_earthquakes', { start: '1994-01-17', end: '1994-01-18', min_magnitude: 6.6 });
      expectChargedOnce(result);
      expect(result.answer.body.records.map((record: { retrievedAt: string }) => ({ ...record, retrievedAt: undefined }))).to.deep.equal([
        {
          id: 'usgs-earthquakes:ci3144585',
          type: 'earthquake',
          source: 'usgs-earthquakes',
          title: 'M 6.7 - 1km NNW of Reseda, CA',
          url: 'https://earthquake.usgs.gov/earthquakes/eventpage/ci3144585',
          license: 'public domain (US government)',
          attribution: 'Source: U.S. Geological Survey, Earthquake Hazards Program (earthquake.usgs.gov)',
          retrievedAt: undefined,
          data: {
            event_id: 'ci3144585',
            magnitude: 6.7,
            magnitude_type: 'mw',
            time: '1994-01-17T12:30:55.390Z',
            place: '1km NNW of Reseda, CA',
            latitude: 34.213,
            longitude: -118.537,
            depth_km: 18.202,
            event_url: 'https://earthquake.usgs.gov/earthquakes/eventpage/ci3144585',
          },
        },
      ]);
    });
  });

  describeRecordings('oeis', () => {
    it('lookup_integer_sequence on the recorded A144640 answer: the exact data', async () => {
      fake.on('/search', json(recording('oeis', 'search-id-A144640-legacy-object-format.json')));
      const result = await charged('lookup_integer_sequence', { query: 'A144640' });
      expectChargedOnce(result);
      const [record] = result.answer.body.records;
      expect([record.id, record.title, record.url]).to.deep.equal(['oeis:A144640', 'A144640: Row sums from A144562.', 'https://oeis.org/A144640']);
      expect({ ...record.data, terms: record.data.terms.slice(0, 5), formulas: record.data.formulas.length }).to.deep.equal({
        a_number: 'A144640',
        name: 'Row sums from A144562.',
        terms: ['3', '17', '48', '102', '185'],
        offset: 1,
        formulas: 3,
        keywords: ['nonn', 'easy'],
        comments: ['Row 2 of the convolution array A213833. - _Clark Kimberling_, Jul 04 2012'],
        author: '_Vincenzo Librandi_, Jan 21 2009, Jun 29 2009',
        references_count: 2,
      });
      expect(record.data.terms).to.have.length(41);
    });
  });

  describeRecordings('gaia', () => {
    it('query_gaia on the recorded cone search: brightest first, ids exact', async () => {
      fake.on('/sync', json(recording('gaia', 'cone-search-dr3-top50-trimmed-3rows.json')));
      const result = await charged('query_gaia', { ra: 280.0000090102581, dec: -59.99999411725738, radius_deg: 0.005555555555555556 });
      expectChargedOnce(result);
      const records = result.answer.body.records;
      expect(records.map((record: { id: string }) => record.id)).to.deep.equal([
        'gaia:6636090339113063296',
        'gaia:6636090334814214528',
        'gaia:6636090339112400000',
      ]);
      expect(records[0].data).to.deep.equal({
        source_id: '6636090339113063296',
        ra_deg: 280.00510823916443,
        dec_deg: -59.99710959400066,
        distance_deg: 0.0038498801828703495,
        parallax_mas: 2.096927412106962,
        parallax_error_mas: 0.054068767,
        pm_ra_mas_yr: -30.119519430442956,
        pm_dec_mas_yr: 7.282709094639535,
        g_mag: 16.610226,
        bp_mag: 17.56058,
        rp_mag: 15.651623,
      });
      expect(Object.keys(records[2].data)).to.deep.equal(['source_id', 'ra_deg', 'dec_deg', 'distance_deg', 'g_mag', 'bp_mag', 'rp_mag']);
    });
  });
});
