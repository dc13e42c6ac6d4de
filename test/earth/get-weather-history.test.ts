import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { down, expectCharged, expectNotCharged, sourcesHarness, recorded } from '../life/support.ts';

const CHARGED_PARTIAL = ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id'];

describeOnEachEngine('get_weather_history over HTTP', (engine) => {
  const earth = sourcesHarness(engine, ['nasa-power', 'open-meteo'] as const);

  it('returns NASA POWER daily values with units in the field names, as gridded model data', async () => {
    earth.on('nasa-power', '/daily/point', recorded('nasa-power', 'daily-point-t2m-ag-json.json'));
    const result = await earth.charged('get_weather_history', {
      latitude: 33.8,
      longitude: -116.5,
      start: '2021-08-01',
      end: '2021-08-03',
      variables: ['temperature_mean', 'precipitation'],
    });
    expectCharged(result);
    const [record] = result.answer.body.records;
    expect({ ...record, retrievedAt: undefined }).to.deep.equal({
      id: 'nasa-power:33.8,-116.5:daily:2021-08-01/2021-08-03',
      type: 'weather_series',
      source: 'nasa-power',
      title: 'Daily weather at 33.8, -116.5, 2021-08-01 to 2021-08-03',
      license: 'public domain (US government)',
      attribution:
        'These data were obtained from the NASA Langley Research Center (LaRC) POWER Project funded through the NASA Earth Science/Applied Science Program',
      retrievedAt: undefined,
      data: {
        latitude: 33.8,
        longitude: -116.5,
        elevation_m: 923.95,
        data_kind: 'gridded_model',
        grid: 'NASA POWER: MERRA-2 0.5° × 0.625° (about 50 km; solar 1°)',
        aggregate: 'daily',
        start: '2021-08-01',
        end: '2021-08-03',
        values: [
          { date: '2021-08-01', temperature_mean_c: 29.38 },
          { date: '2021-08-02', temperature_mean_c: 31.57 },
          { date: '2021-08-03', temperature_mean_c: 32.71 },
        ],
      },
    });
    expect(result.answer.body.summary).to.equal(
      '3 days of gridded model weather (not station records) at 33.8, -116.5 from 2021-08-01 to 2021-08-03, from NASA POWER.',
    );
    const query = earth.hits('nasa-power', '/daily/point')[0]!.query;
    expect([query.get('parameters'), query.get('start'), query.get('end'), query.get('community')]).to.deep.equal([
      'T2M,PRECTOTCORR',
      '20210801',
      '20210803',
      'RE',
    ]);
  });

  it('monthly: one entry per month, the annual month "13" left out, radiation in kWh/m²/day', async () => {
    earth.on('nasa-power', '/monthly/point', recorded('nasa-power', 'monthly-regional-ag-json-trimmed.json'));
    const result = await earth.charged('get_weather_history', {
      latitude: 37.25,
      longitude: 23.25,
      start: '2022-11-01',
      end: '2022-12-31',
      aggregate: 'monthly',
      variables: ['temperature_max', 'temperature_min', 'relative_humidity', 'wind_speed', 'solar_radiation'],
    });
    expectCharged(result);
    expect(result.answer.body.records[0].data.values).to.deep.equal([
      { date: '2022-11', temperature_max_c: 24.14, temperature_min_c: 12.75, wind_speed_m_s: 4.55, solar_radiation_kwh_m2_day: 2.744 },
      { date: '2022-12', temperature_max_c: 20.57, temperature_min_c: 9.22, wind_speed_m_s: 3.44, solar_radiation_kwh_m2_day: 2.128 },
    ]);
    expect(earth.hits('nasa-power', '/monthly/point')[0]!.query.get('start')).to.equal('2022');
  });

  it('when NASA POWER fails, Open-Meteo answers: partial, with NASA POWER in failedSources', async () => {
    earth.on('nasa-power', '/daily/point', down);
    earth.on('open-meteo', '/archive', recorded('nasa-power', 'open-meteo-archive-daily-nyc-trimmed.json'));
    const result = await earth.charged('get_weather_history', {
      latitude: 40.7128,
      longitude: -74.006,
      start: '2016-02-15',
      end: '2016-02-16',
      variables: ['temperature_max', 'relative_humidity'],
    });
    expectCharged(result, CHARGED_PARTIAL);
    const body = result.answer.body;
    expect(body.failedSources).to.deep.equal([
      {
        source: 'nasa-power',
        error: 'nasa-power answered HTTP 503: service unavailable; missing from the answer: NASA POWER values (Open-Meteo asked instead)',
      },
    ]);
    expect([body.records[0].id, body.records[0].license, body.records[0].attribution]).to.deep.equal([
      'open-meteo:40.7128,-74.006:daily:2016-02-15/2016-02-16',
      'CC-BY-4.0',
      'Weather data by Open-Meteo.com, CC BY 4.0',
    ]);
    expect(body.records[0].data.values.slice(0, 2)).to.deep.equal([
      { date: '2016-02-15', temperature_max_c: 4.72 },
      { date: '2016-02-16', temperature_max_c: 11.5 },
    ]);
    expect(body.records[0].data.data_kind).to.equal('gridded_model');
    expect(earth.hits('open-meteo', '/archive')[0]!.query.get('daily')).to.equal('temperature_2m_max,relative_humidity_2m_mean');
  });

  it('Open-Meteo monthly means when NASA POWER fails on a monthly request', async () => {
    earth.on('nasa-power', '/monthly/point', down);
    earth.on(
      'open-meteo',
      '/archive',
      json({
        daily: { time: ['2020-01-30', '2020-01-31', '2020-02-01'], precipitation_sum: [1.5, 2.5, null], relative_humidity_2m_mean: [80, 90, 70] },
        daily_units: { precipitation_sum: 'mm', relative_humidity_2m_mean: '%' },
      }),
    );
    const result = await earth.charged('get_weather_history', {
      latitude: 1,
      longitude: 2,
      start: '2020-01-01',
      end: '2020-02-29',
      aggregate: 'monthly',
      variables: ['precipitation', 'relative_humidity'],
    });
    expectCharged(result, CHARGED_PARTIAL);
    expect(result.answer.body.records[0].data.values).to.deep.equal([
      { date: '2020-01', precipitation_mm_per_day: 2, relative_humidity_pct: 85 },
      { date: '2020-02', relative_humidity_pct: 70 },
    ]);
  });

  it('is a 502, not charged, when NASA POWER and Open-Meteo both fail', async () => {
    earth.on('nasa-power', '/daily/point', down);
    earth.on('open-meteo', '/archive', json({ error: true, reason: 'Internal error' }, { status: 500 }));
    const result = await earth.charged('get_weather_history', { latitude: 1, longitude: 2, start: '2020-01-01', end: '2020-01-02' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal(
      'no source answered: nasa-power answered HTTP 503: service unavailable; missing from the answer: NASA POWER values (Open-Meteo asked instead); open-meteo answered HTTP 500: Internal error; missing from the answer: weather values',
    );
  });

  for (const [what, body, field] of [
    ['latitude 91', { latitude: 91, longitude: 0, start: '2020-01-01', end: '2020-01-02' }, /^latitude: /],
    ['a 2,001-day daily request', { latitude: 0, longitude: 0, start: '2000-01-01', end: '2005-06-23' }, /\bend\b/],
    ['a start before 1981-01-01', { latitude: 0, longitude: 0, start: '1980-12-31', end: '1981-01-02' }, /^start: /],
  ] as const) {
    it(`rejects ${what} with 400 naming the field, without asking upstream`, async () => {
      const result = await earth.charged('get_weather_history', body);
      expectNotCharged(result, 400, 'invalid_input');
      expect(result.answer.body.error.message).to.match(field);
      expect(earth.fake.hits).to.have.length(0);
    });
  }

  it('accepts 2,000 days daily, and long periods monthly', async () => {
    earth.on('nasa-power', '/daily/point', recorded('nasa-power', 'daily-point-t2m-ag-json.json'));
    earth.on('nasa-power', '/monthly/point', recorded('nasa-power', 'monthly-regional-ag-json-trimmed.json'));
    expectCharged(await earth.charged('get_weather_history', { latitude: 0, longitude: 0, start: '2000-01-01', end: '2005-06-22' }));
    expectCharged(await earth.charged('get_weather_history', { latitude: 0, longitude: 0, start: '1981-01-01', end: '2022-12-31', aggregate: 'monthly' }));
  });
});
