import { expect } from 'chai';
import { distanceKm, foundCount, parseDailyMeans, parseLocations, parseSensorList, withinPhysicalBounds } from '../../src/connectors/openaq.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, recording } from './recordings.ts';

const json = (file: string) => parseJsonKeepingBigIntegers(recording('openaq', file));

describeRecordings('openaq', () => {
  it("reads the stations near a point, nearest first, distance in km, only the six pollutants' sensors", () => {
    const stations = parseLocations(json('locations-coordinates-radius.json'));
    expect(stations.map((station) => [station.id, station.distanceKm])).to.deep.equal([
      [3069196, 6.111],
      [3069197, 6.111],
      [1011, 6.641],
      [7974, 6.959],
    ]);
    expect(stations[3]).to.deep.equal({
      id: 7974,
      name: 'Palm Springs - Fire',
      locality: 'Riverside-San Bernardino-Ontario',
      countryCode: 'US',
      latitude: 33.85260499999999,
      longitude: -116.54096500000001,
      distanceKm: 6.959,
      provider: 'AirNow',
      licenses: [{ name: 'US Public Domain', attribution: 'Unknown Governmental Organization' }],
      sensors: [
        { id: 25461, pollutant: 'co', unit: 'ppm' },
        { id: 25462, pollutant: 'no2', unit: 'ppm' },
        { id: 25463, pollutant: 'o3', unit: 'ppm' },
        { id: 23102, pollutant: 'pm10', unit: 'µg/m³' },
      ],
    });
    expect(stations[2]!.locality).to.equal(undefined);
  });

  it('reads the daily aggregates of a sensor: local day, mean, coverage', () => {
    expect(parseDailyMeans(json('sensor-1820-hours-daily.json'))).to.deep.equal([
      { date: '2016-10-14', mean: 0.0461, coveragePct: 100 },
      { date: '2016-10-15', mean: 0.0415, coveragePct: 79 },
      { date: '2016-10-16', mean: 0.0324, coveragePct: 100 },
    ]);
  });

  it('reads meta.found as a number or as a lower bound sent as a string', () => {
    expect(foundCount(json('sensor-3-measurements-limit5-found-string.json'))).to.equal(5);
    expect(foundCount(json('location-1-latest-empty.json'))).to.equal(0);
    expect(parseDailyMeans(json('location-1-latest-empty.json'))).to.deep.equal([]);
    expect(parseDailyMeans(json('sensor-3-measurements-limit5-found-string.json')).map((row) => row.mean)).to.deep.equal([1, 1, 1.01, 1.01, 1.02]);
  });

  it("reads sensor answers: one sensor, and a location's sensors", () => {
    expect(parseSensorList(json('sensor-5.json'))).to.deep.equal([{ id: 5, pollutant: 'pm25', unit: 'µg/m³' }]);
    expect(parseSensorList(json('location-1011-sensors.json'))).to.deep.equal([
      { id: 1820, pollutant: 'o3', unit: 'ppm' },
      { id: 1822, pollutant: 'pm10', unit: 'µg/m³' },
    ]);
  });
});

describe('openaq connector', () => {
  it('physical bounds: negative values and impossible highs are outside, per pollutant and unit', () => {
    expect([
      withinPhysicalBounds('pm25', 'µg/m³', -1),
      withinPhysicalBounds('pm25', 'µg/m³', 0),
      withinPhysicalBounds('pm25', 'µg/m³', 856),
      withinPhysicalBounds('pm25', 'µg/m³', 9999),
      withinPhysicalBounds('o3', 'ppm', 0.2),
      withinPhysicalBounds('o3', 'ppm', 3),
      withinPhysicalBounds('o3', 'ppb', 3),
    ]).to.deep.equal([false, true, true, false, true, false, true]);
  });

  it('computes the distance when OpenAQ sends none', () => {
    const body = { results: [{ id: 9, coordinates: { latitude: 51.5, longitude: 0.1 }, distance: null, sensors: [] }] };
    expect(parseLocations(body, { latitude: 51.5, longitude: 0 })[0]!.distanceKm).to.equal(6.922);
    expect(Math.round(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 1 }))).to.equal(111);
  });
});
