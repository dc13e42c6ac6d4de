import { expect } from 'chai';
import { recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { down, expectCharged, expectNotCharged, sourcesHarness, recorded } from '../life/support.ts';

const CHARGED_PARTIAL = ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id'];
const LOCATIONS = '/collections/monitoring-locations/items';

/** Hand-made: the monitoring-locations shape of the recordings, for the stream site of the daily recording. */
const handMadeStreamSite = json({
  type: 'Feature',
  id: 'USGS-05427718',
  geometry: { type: 'Point', coordinates: [-89.3525, 43.2088889] },
  properties: {
    id: 'USGS-05427718',
    monitoring_location_number: '05427718',
    monitoring_location_name: 'YAHARA RIVER AT WINDSOR, WI',
    site_type: 'Stream',
    state_name: 'Wisconsin',
    drainage_area: 73.6,
  },
});

describeOnEachEngine('get_water_data over HTTP', (engine) => {
  const earth = sourcesHarness(engine, ['usgs-water'] as const);

  it('a site: daily means as numbers with approval status, unit and the site description; the USGS- prefix is accepted', async () => {
    earth.on('usgs-water', '/collections/daily/items', recorded('usgs-water', 'ogcapi-daily-2-features.json'));
    earth.on('usgs-water', `${LOCATIONS}/USGS-05427718`, handMadeStreamSite);
    const result = await earth.charged('get_water_data', { site: 'USGS-05427718', start: '2025-12-01', end: '2026-03-31' });
    expectCharged(result);
    const [record] = result.answer.body.records;
    expect({ ...record, retrievedAt: undefined }).to.deep.equal({
      id: 'usgs-water:05427718',
      type: 'water_site',
      source: 'usgs-water',
      title: 'YAHARA RIVER AT WINDSOR, WI',
      url: 'https://waterdata.usgs.gov/monitoring-location/USGS-05427718/',
      license: 'public domain (US government)',
      attribution: 'Source: U.S. Geological Survey, National Water Information System',
      retrievedAt: undefined,
      data: {
        site_number: '05427718',
        name: 'YAHARA RIVER AT WINDSOR, WI',
        site_type: 'Stream',
        state: 'Wisconsin',
        latitude: 43.2088889,
        longitude: -89.3525,
        drainage_area_sq_mi: 73.6,
        site_url: 'https://waterdata.usgs.gov/monitoring-location/USGS-05427718/',
        parameter: 'streamflow',
        parameter_code: '00060',
        unit: 'ft3/s',
        values: [
          { date: '2025-12-26', value: 20.2, approval_status: 'provisional' },
          { date: '2026-03-19', value: 27.1, approval_status: 'provisional' },
        ],
      },
    });
    expect(result.answer.body.summary).to.equal(
      '2 daily mean streamflow values for USGS site 05427718 (YAHARA RIVER AT WINDSOR, WI) from 2025-12-01 to 2026-03-31.',
    );
    const query = earth.hits('usgs-water', '/collections/daily/items')[0]!.query;
    expect([query.get('monitoring_location_id'), query.get('parameter_code'), query.get('statistic_id'), query.get('datetime')]).to.deep.equal([
      'USGS-05427718',
      '00060',
      '00003',
      '2025-12-01/2026-03-31',
    ]);
  });

  it('when the OGC API fails, NWIS WaterServices gives the values; the failed site description makes it partial', async () => {
    earth.on('usgs-water', '/collections/daily/items', down);
    earth.on('usgs-water', `${LOCATIONS}/USGS-01491000`, down);
    earth.on('usgs-water', '/nwis/dv/', recorded('usgs-water', 'nwis-dv-json-two-sites.json'));
    const result = await earth.charged('get_water_data', { site: '01491000', start: '2020-02-14', end: '2020-02-15' });
    expectCharged(result, CHARGED_PARTIAL);
    const body = result.answer.body;
    expect(body.failedSources).to.deep.equal([
      { source: 'usgs-water', error: 'usgs-water answered HTTP 503: service unavailable; missing from the answer: site name and location' },
    ]);
    expect(body.records[0].data).to.deep.equal({
      site_number: '01491000',
      name: 'CHOPTANK RIVER NEAR GREENSBORO, MD',
      latitude: 38.99719444,
      longitude: -75.7858056,
      site_url: 'https://waterdata.usgs.gov/monitoring-location/USGS-01491000/',
      parameter: 'streamflow',
      parameter_code: '00060',
      unit: 'ft3/s',
      values: [
        { date: '2020-02-14', value: 466, approval_status: 'provisional' },
        { date: '2020-02-15', value: 362, approval_status: 'provisional' },
      ],
    });
    const nwis = earth.hits('usgs-water', '/nwis/dv/')[0]!.query;
    expect([nwis.get('sites'), nwis.get('parameterCd'), nwis.get('statCd'), nwis.get('startDT'), nwis.get('endDT')]).to.deep.equal([
      '01491000',
      '00060',
      '00003',
      '2020-02-14',
      '2020-02-15',
    ]);
  });

  it('keeps qualifiers and leaves out days whose value is a fill text (hand-made answer in the recorded shape)', async () => {
    const day = (time: string, value: string, qualifier: string[] | null) => ({
      type: 'Feature',
      id: time,
      geometry: null,
      properties: {
        monitoring_location_id: 'USGS-05427718',
        parameter_code: '00060',
        statistic_id: '00003',
        time,
        value,
        unit_of_measure: 'ft^3/s',
        approval_status: 'Provisional',
        qualifier,
      },
    });
    earth.on(
      'usgs-water',
      '/collections/daily/items',
      json({ type: 'FeatureCollection', features: [day('2026-01-02', 'Ice', ['ICE']), day('2026-01-01', '18.4', ['ESTIMATED'])], numberReturned: 2 }),
    );
    earth.on('usgs-water', `${LOCATIONS}/USGS-05427718`, handMadeStreamSite);
    const result = await earth.charged('get_water_data', { site: '05427718', start: '2026-01-01', end: '2026-01-02' });
    expectCharged(result);
    expect(result.answer.body.records[0].data.values).to.deep.equal([
      { date: '2026-01-01', value: 18.4, approval_status: 'provisional', qualifiers: ['ESTIMATED'] },
    ]);
  });

  it('lists the stream sites of a state given by its full name, one record per site', async () => {
    earth.on('usgs-water', LOCATIONS, recorded('usgs-water', 'ogcapi-monitoring-locations-2-features.json'));
    const result = await earth.charged('get_water_data', { state: 'connecticut', limit: 2 });
    expectCharged(result);
    expect(result.answer.body.records.map((record: { id: string }) => record.id)).to.deep.equal(['usgs-water:410252073314801', 'usgs-water:410257073251001']);
    expect(result.answer.body.summary).to.equal('2 stream monitoring sites in Connecticut.');
    const query = earth.hits('usgs-water', LOCATIONS)[0]!.query;
    expect([query.get('state_name'), query.get('site_type_code'), query.get('limit')]).to.deep.equal(['Connecticut', 'ST', '2']);
  });

  it('lists the sites of a bounding box from NWIS when the OGC API fails, site numbers with their leading zeros', async () => {
    earth.on('usgs-water', LOCATIONS, down);
    earth.on('usgs-water', '/nwis/site/', { body: recording('usgs-water', 'nwis-site-rdb-bbox-trimmed.tsv'), contentType: 'text/plain' });
    const result = await earth.charged('get_water_data', { bbox: [-83, 36.5, -81, 38.5], limit: 3 });
    expectCharged(result);
    expect(result.answer.body.records.map((record: { data: { site_number: string } }) => record.data.site_number)).to.deep.equal([
      '03161500',
      '03163000',
      '03175100',
    ]);
    const query = earth.hits('usgs-water', '/nwis/site/')[0]!.query;
    expect([query.get('bBox'), query.get('format'), query.get('siteType')]).to.deep.equal(['-83,36.5,-81,38.5', 'rdb', 'ST']);
  });

  it('is a 502, not charged, when the OGC API and NWIS both fail', async () => {
    earth.on('usgs-water', LOCATIONS, down);
    earth.on('usgs-water', '/nwis/site/', down);
    const result = await earth.charged('get_water_data', { state: 'MD' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal(
      'no source answered: usgs-water answered HTTP 503: service unavailable; the NWIS WaterServices fallback: usgs-water answered HTTP 503: service unavailable; missing from the answer: site list',
    );
  });

  it('rejects a call with no site, state or bbox, and an unknown state, with 400 naming the field', async () => {
    const none = await earth.charged('get_water_data', { parameter: 'streamflow' });
    expectNotCharged(none, 400, 'invalid_input');
    expect(none.answer.body.error.message).to.match(/site.*state.*bbox/);
    const unknown = await earth.charged('get_water_data', { state: 'Atlantis' });
    expectNotCharged(unknown, 400, 'invalid_input');
    expect(unknown.answer.body.error.message).to.equal('state: "Atlantis" is not a US state code or name');
    expect(earth.fake.hits).to.have.length(0);
  });
});
