import { expect } from 'chai';
import { parsePowerCsv, parsePowerJson, pointSearchParams, toSeries } from '../../src/connectors/nasa-power.ts';
import { archiveSearchParams, getArchiveDaily, monthlyMeans, parseArchive } from '../../src/connectors/open-meteo.ts';
import type { UpstreamClient } from '../../src/upstream/client.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, recording } from './recordings.ts';

const json = (file: string) => parseJsonKeepingBigIntegers(recording('nasa-power', file));

describeRecordings('nasa-power', () => {
  it('reads the daily point JSON: date keys become ISO days, values exact, elevation of the grid cell', () => {
    const parsed = parsePowerJson(json('daily-point-t2m-ag-json.json'));
    expect(parsed.elevationM).to.equal(923.95);
    expect(parsed.units).to.deep.equal({ T2M: 'C', PSC: 'kPa' });
    const series = toSeries(parsed, { start: '2021-08-01', end: '2021-08-05', variables: ['temperature_mean', 'temperature_max'] }, 'daily');
    expect(series.periods).to.deep.equal([
      { date: '2021-08-01', values: { temperature_mean: 29.38 } },
      { date: '2021-08-02', values: { temperature_mean: 31.57 } },
      { date: '2021-08-03', values: { temperature_mean: 32.71 } },
      { date: '2021-08-04', values: { temperature_mean: 34.07 } },
      { date: '2021-08-05', values: { temperature_mean: 34.71 } },
    ]);
  });

  it('reads the monthly JSON: month "13" is the annual value, kept apart; radiation in MJ becomes kWh', () => {
    const parsed = parsePowerJson(json('monthly-regional-ag-json-trimmed.json'));
    const series = toSeries(parsed, { start: '2022-01-01', end: '2022-03-31', variables: ['temperature_mean', 'precipitation', 'solar_radiation'] }, 'monthly');
    expect(series.periods).to.deep.equal([
      { date: '2022-01', values: { temperature_mean: 10.43, precipitation: 1.97, solar_radiation: 2.414 } },
      { date: '2022-02', values: { temperature_mean: 12.02, precipitation: 1.27, solar_radiation: 3.269 } },
      { date: '2022-03', values: { temperature_mean: 10.51, precipitation: 0.96, solar_radiation: 3.933 } },
    ]);
    expect(series.annual).to.deep.equal({ 2022: { temperature_mean: 19.0, precipitation: 0.97, solar_radiation: 4.994 } });
    expect(series.elevationM).to.equal(132.73);
  });

  it('reads the daily CSV (YEAR,DOY rows after the header block) to the same shape', () => {
    const parsed = parsePowerCsv(recording('nasa-power', 'daily-point-ag-csv.csv'));
    expect(parsed.elevationM).to.equal(2885.03);
    expect(parsed.values).to.deep.equal({
      T2M: { 19830101: -24.36 },
      T2M_MIN: { 19830101: -25.37 },
      T2M_MAX: { 19830101: -22.7 },
      RH2M: { 19830101: 92.61 },
      WS10M: { 19830101: 1.93 },
      PS: { 19830101: 69.23 },
    });
    expect(parsed.units.RH2M).to.equal('%');
  });

  it('reads the Open-Meteo archive: °F becomes °C, the grid cell is the snapped one', () => {
    const parsed = parseArchive(json('open-meteo-archive-daily-nyc-trimmed.json'), ['temperature_max', 'temperature_min', 'wind_speed']);
    expect([parsed.gridLatitude, parsed.gridLongitude, parsed.elevationM]).to.deep.equal([40.738136, -74.04254, 32]);
    expect(parsed.days.slice(0, 2)).to.deep.equal([
      { date: '2016-02-15', values: { temperature_max: 4.72, temperature_min: -10.39 } },
      { date: '2016-02-16', values: { temperature_max: 11.5, temperature_min: 0 } },
    ]);
    expect(parsed.days.map((day) => day.date).slice(-1)).to.deep.equal(['2026-02-14']);
    expect(parsed.unavailable).to.deep.equal(['wind_speed']);
  });
});

describe('nasa-power and open-meteo connectors', () => {
  it("fill values (-999, or the header's fill_value) never become numbers", () => {
    const body = {
      type: 'Feature',
      geometry: { coordinates: [10, 50, 300] },
      header: { fill_value: -999.0 },
      properties: { parameter: { T2M: { 20240101: -999.0, 20240102: 3.5 }, PRECTOTCORR: { 20240101: 0, 20240102: -999 } } },
      parameters: { T2M: { units: 'C' }, PRECTOTCORR: { units: 'mm/day' } },
    };
    const series = toSeries(parsePowerJson(body), { start: '2024-01-01', end: '2024-01-02', variables: ['temperature_mean', 'precipitation'] }, 'daily');
    expect(series.periods).to.deep.equal([
      { date: '2024-01-01', values: { precipitation: 0 } },
      { date: '2024-01-02', values: { temperature_mean: 3.5 } },
    ]);
  });

  it('asks POWER for the community RE parameters with compact dates (days, or years for monthly)', () => {
    const query = { latitude: 52.5, longitude: 13.4, start: '2020-01-01', end: '2020-03-31', variables: ['temperature_max', 'solar_radiation'] as const };
    expect(pointSearchParams({ ...query, variables: [...query.variables] }, 'daily')).to.deep.equal({
      parameters: 'T2M_MAX,ALLSKY_SFC_SW_DWN',
      community: 'RE',
      longitude: 13.4,
      latitude: 52.5,
      start: '20200101',
      end: '20200331',
      format: 'JSON',
      'time-standard': 'UTC',
    });
    expect(pointSearchParams({ ...query, variables: [...query.variables] }, 'monthly')).to.include({ start: '2020', end: '2020' });
    expect(archiveSearchParams({ ...query, variables: ['temperature_max', 'wind_speed', 'precipitation'] })).to.deep.equal({
      latitude: 52.5,
      longitude: 13.4,
      start_date: '2020-01-01',
      end_date: '2020-03-31',
      daily: 'temperature_2m_max,precipitation_sum',
      timezone: 'UTC',
    });
  });

  it('null values of Open-Meteo are left out; monthly means average the days that have a value', () => {
    const parsed = parseArchive(
      { daily: { time: ['2020-01-30', '2020-01-31', '2020-02-01'], precipitation_sum: [1, null, 4] }, daily_units: { precipitation_sum: 'mm' } },
      ['precipitation'],
    );
    expect(parsed.days[1]).to.deep.equal({ date: '2020-01-31', values: {} });
    expect(monthlyMeans(parsed.days)).to.deep.equal([
      { date: '2020-01', values: { precipitation: 1 } },
      { date: '2020-02', values: { precipitation: 4 } },
    ]);
  });

  it('Open-Meteo is not asked when it has none of the requested variables (it has no wind at 2 m)', async () => {
    const failure = await getArchiveDaily({} as UpstreamClient, {
      latitude: 0,
      longitude: 0,
      start: '2020-01-01',
      end: '2020-01-02',
      variables: ['wind_speed'],
    }).catch((error: Error) => error);
    expect((failure as Error).message).to.equal('open-meteo has none of the requested variables (wind_speed)');
  });

  it('an Open-Meteo error body is an upstream error with its reason', () => {
    expect(() => parseArchive({ error: true, reason: 'Parameter start_date is out of range' }, [])).to.throw(
      'open-meteo answered with an error: Parameter start_date is out of range',
    );
  });
});
