import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { down, expectCharged, expectNotCharged, sourcesHarness, recorded } from '../life/support.ts';

const CHARGED_PARTIAL = ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id'];
const PALM_SPRINGS = { latitude: 33.8, longitude: -116.5 };

/** Hand-made, in the shape of the sensor-1820 recording: one plausible day and two outside physical bounds. */
const handMadeDays = json({
  meta: { name: 'openaq-api', website: '/', page: 1, limit: 100, found: 3 },
  results: [
    {
      value: 0.031,
      parameter: { id: 10, name: 'o3', units: 'ppm' },
      period: { label: '1 day', datetimeFrom: { utc: '2016-10-15T07:00:00Z', local: '2016-10-15T00:00:00-07:00' } },
      coverage: { percentComplete: 96.0 },
    },
    {
      value: -0.5,
      parameter: { id: 10, name: 'o3', units: 'ppm' },
      period: { label: '1 day', datetimeFrom: { utc: '2016-10-14T07:00:00Z', local: '2016-10-14T00:00:00-07:00' } },
      coverage: { percentComplete: 100.0 },
    },
    {
      value: 42.0,
      parameter: { id: 10, name: 'o3', units: 'ppm' },
      period: { label: '1 day', datetimeFrom: { utc: '2016-10-16T07:00:00Z', local: '2016-10-16T00:00:00-07:00' } },
      coverage: { percentComplete: 100.0 },
    },
  ],
});

describeOnEachEngine('get_air_quality over HTTP', (engine) => {
  const earth = sourcesHarness(engine, ['openaq'] as const, { SOURCE_OPENAQ_KEY: 'openaq-test-key' });

  it('stations within the radius nearest first, with distance, licences and daily means; values outside physical bounds dropped and said so', async () => {
    earth.on('openaq', '/locations', recorded('openaq', 'locations-coordinates-radius.json'));
    earth.on('openaq', '/sensors/1820/days', recorded('openaq', 'sensor-1820-hours-daily.json'));
    earth.on('openaq', '/sensors/25463/days', handMadeDays);
    const result = await earth.charged('get_air_quality', { ...PALM_SPRINGS, pollutants: ['o3'], start: '2016-10-14', end: '2016-10-16' });
    expectCharged(result);
    const body = result.answer.body;
    expect(body.records.map((record: { id: string }) => record.id)).to.deep.equal(['openaq:1011', 'openaq:7974']);
    expect({ ...body.records[0], retrievedAt: undefined }).to.deep.equal({
      id: 'openaq:1011',
      type: 'air_quality_station',
      source: 'openaq',
      title: 'Palm Springs - Fire',
      url: 'https://explore.openaq.org/locations/1011',
      license: 'per location (licenses[]); OpenAQ Terms of Use',
      attribution: "Data via OpenAQ (openaq.org), with the provider named in each location's licence",
      retrievedAt: undefined,
      data: {
        location_id: 1011,
        name: 'Palm Springs - Fire',
        country_code: 'US',
        latitude: 33.8497,
        longitude: -116.54,
        distance_km: 6.641,
        provider: 'AirNow',
        licenses: [{ name: 'US Public Domain', attribution: 'Unknown Governmental Organization' }],
        series: [
          {
            pollutant: 'o3',
            sensor_id: 1820,
            unit: 'ppm',
            values: [
              { date: '2016-10-14', mean: 0.0461, coverage_pct: 100 },
              { date: '2016-10-15', mean: 0.0415, coverage_pct: 79 },
              { date: '2016-10-16', mean: 0.0324, coverage_pct: 100 },
            ],
          },
        ],
      },
    });
    expect(body.records[1].data.locality).to.equal('Riverside-San Bernardino-Ontario');
    expect(body.records[1].data.series).to.deep.equal([
      { pollutant: 'o3', sensor_id: 25463, unit: 'ppm', values: [{ date: '2016-10-15', mean: 0.031, coverage_pct: 96 }], dropped_values: 2 },
    ]);
    expect(body.summary).to.equal(
      '2 stations within 25 km of 33.8, -116.5 measuring o3, daily means from 2016-10-14 to 2016-10-16, nearest first; 2 daily means outside physical bounds dropped.',
    );
    const search = earth.hits('openaq', '/locations')[0]!;
    expect([search.query.get('coordinates'), search.query.get('radius'), search.headers['x-api-key']]).to.deep.equal([
      '33.8,-116.5',
      '25000',
      'openaq-test-key',
    ]);
    expect([...earth.hits('openaq', '/sensors/1820/days')[0]!.query]).to.deep.equal([
      ['date_from', '2016-10-14'],
      ['date_to', '2016-10-16'],
      ['limit', '1000'],
      ['page', '1'],
    ]);
  });

  it('a sensor that fails leaves its station without that series: partial, failedSources says which', async () => {
    earth.on('openaq', '/locations', recorded('openaq', 'locations-coordinates-radius.json'));
    earth.on('openaq', '/sensors/1820/days', recorded('openaq', 'sensor-1820-hours-daily.json'));
    earth.on('openaq', '/sensors/25463/days', down);
    const result = await earth.charged('get_air_quality', { ...PALM_SPRINGS, radius_km: 10, pollutants: ['o3'], start: '2016-10-14', end: '2016-10-16' });
    expectCharged(result, CHARGED_PARTIAL);
    expect(result.answer.body.failedSources).to.deep.equal([
      { source: 'openaq', error: 'openaq answered HTTP 503: service unavailable; missing from the answer: daily o3 means of station 7974' },
    ]);
    expect(result.answer.body.records[1].data.series).to.deep.equal([]);
    expect(earth.hits('openaq', '/locations')[0]!.query.get('radius')).to.equal('10000');
  });

  it('is a 502, not charged, when OpenAQ fails', async () => {
    earth.on('openaq', '/locations', down);
    expectNotCharged(await earth.charged('get_air_quality', PALM_SPRINGS));
  });

  it('rejects an unknown pollutant and a radius above 25 km with 400 naming the field', async () => {
    const pollutant = await earth.charged('get_air_quality', { ...PALM_SPRINGS, pollutants: ['o3', 'pm1'] });
    expectNotCharged(pollutant, 400, 'invalid_input');
    expect(pollutant.answer.body.error.message).to.match(/^pollutants\.1: /);
    const radius = await earth.charged('get_air_quality', { ...PALM_SPRINGS, radius_km: 26 });
    expectNotCharged(radius, 400, 'invalid_input');
    expect(radius.answer.body.error.message).to.match(/^radius_km: /);
    expect(earth.fake.hits).to.have.length(0);
  });
});

describeOnEachEngine('get_air_quality without an OpenAQ key', (engine) => {
  const earth = sourcesHarness(engine, ['openaq'] as const);

  it('is a 502 naming the variable to set, and nothing is sent', async () => {
    const result = await earth.charged('get_air_quality', PALM_SPRINGS);
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal('no source answered: openaq needs an API key: set SOURCE_OPENAQ_KEY; missing from the answer: stations');
    expect(earth.fake.hits).to.have.length(0);
  });
});
