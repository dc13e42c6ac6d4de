import { expect } from 'chai';
import {
  dailySearchParams,
  monitoringLocationParams,
  parseDailyItems,
  parseMonitoringLocations,
  parseNwisDailyValues,
  parseRdbSites,
} from '../../src/connectors/usgs-water.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, recording } from './recordings.ts';

const json = (file: string) => parseJsonKeepingBigIntegers(recording('usgs-water', file));

describeRecordings('usgs-water', () => {
  it('reads OGC daily values: string values become numbers, time order, approval status, site number without the prefix', () => {
    const parsed = parseDailyItems(json('ogcapi-daily-2-features.json'));
    expect(parsed).to.deep.equal({
      siteNumber: '05427718',
      unit: 'ft^3/s',
      values: [
        { date: '2025-12-26', value: 20.2, approvalStatus: 'provisional', qualifiers: undefined },
        { date: '2026-03-19', value: 27.1, approvalStatus: 'provisional', qualifiers: undefined },
      ],
      next: undefined,
    });
  });

  it('reads the 10-item OGC page, sorted by day, and takes the cursor of the next link', () => {
    const parsed = parseDailyItems(json('ogcapi-daily-items-limit10.json'));
    expect(parsed.values.map((value) => [value.date, value.value])).to.deep.equal([
      ['2018-02-12', 14],
      ['2018-02-16', 2.59],
      ['2018-02-18', 420.69],
      ['2018-02-21', 0],
      ['2018-02-22', 13.1],
      ['2018-02-22', 52],
      ['2018-02-23', 114],
      ['2018-03-01', 0.46],
      ['2018-03-02', 0.13],
      ['2018-03-04', 6.61],
    ]);
    expect(parsed.values.every((value) => value.approvalStatus === 'approved')).to.equal(true);
    expect(parsed.next).to.include({ cursor: 'MDAwMGU5MzctMWMzZi00OTc2LWI1MDctOTFlY2Q0OTNmNjQy', limit: '10' });
  });

  it('reads OGC monitoring locations: site numbers keep their exact form', () => {
    expect(parseMonitoringLocations(json('ogcapi-monitoring-locations-2-features.json'))).to.deep.equal([
      {
        siteNumber: '410252073314801',
        name: 'CT-STM    2',
        siteType: 'Well',
        state: 'Connecticut',
        latitude: 41.04777271320483,
        longitude: -73.52955169969904,
        drainageAreaSqMi: undefined,
      },
      {
        siteNumber: '410257073251001',
        name: 'CT-NW    35',
        siteType: 'Well',
        state: 'Connecticut',
        latitude: 41.04916115609651,
        longitude: -73.41899256198708,
        drainageAreaSqMi: undefined,
      },
    ]);
  });

  it('reads NWIS WaterML-JSON: the daily-mean streamflow of the first site, leading zeros kept, P = provisional', () => {
    const parsed = parseNwisDailyValues(json('nwis-dv-json-two-sites.json'), '00060');
    expect(parsed).to.deep.equal({
      siteNumber: '01491000',
      unit: 'ft3/s',
      values: [
        { date: '2020-02-14', value: 466, approvalStatus: 'provisional', qualifiers: undefined },
        { date: '2020-02-15', value: 362, approvalStatus: 'provisional', qualifiers: undefined },
      ],
      site: { siteNumber: '01491000', name: 'CHOPTANK RIVER NEAR GREENSBORO, MD', latitude: 38.99719444, longitude: -75.7858056 },
    });
  });

  it('an NWIS series listed with no values in the range gives no values', () => {
    const parsed = parseNwisDailyValues(json('nwis-dv-json-two-sites.json'), '00010');
    expect([parsed.siteNumber, parsed.unit, parsed.values]).to.deep.equal(['01491000', 'deg C', []]);
  });

  it('reads NWIS RDB site lists: the format row skipped, site numbers as strings, empty cells omitted', () => {
    expect(parseRdbSites(recording('usgs-water', 'nwis-site-rdb-two-sites.tsv'))).to.deep.equal([
      { siteNumber: '01491000', name: 'CHOPTANK RIVER NEAR GREENSBORO, MD', latitude: 38.99719444, longitude: -75.7858056, drainageAreaSqMi: undefined },
      { siteNumber: '01645000', name: 'SENECA CREEK AT DAWSONVILLE, MD', latitude: 39.1280833, longitude: -77.33577778, drainageAreaSqMi: undefined },
    ]);
    const box = parseRdbSites(recording('usgs-water', 'nwis-site-rdb-bbox-trimmed.tsv'));
    expect(box.map((site) => site.siteNumber)).to.deep.equal(['03161500', '03163000', '03175100', '03175140', '03177700', '03177710', '03178000', '03178500']);
    expect(box[6]).to.deep.equal({
      siteNumber: '03178000',
      name: 'BLUESTONE R NR SPANISHBURG, WV',
      latitude: 37.4334722,
      longitude: -81.11,
      drainageAreaSqMi: undefined,
    });
  });
});

describe('usgs-water connector', () => {
  it('fill texts (empty, Ice, Eqp) and the NWIS no-data value never become numbers; other qualifiers are kept', () => {
    const body = {
      value: {
        timeSeries: [
          {
            sourceInfo: { siteCode: [{ value: '06730500' }] },
            variable: {
              variableCode: [{ value: '00060' }],
              unit: { unitCode: 'ft3/s' },
              options: { option: [{ optionCode: '00003' }] },
              noDataValue: -999999.0,
            },
            values: [
              {
                value: [
                  { value: '-999999', qualifiers: ['P', 'Ice'], dateTime: '2024-01-01T00:00:00.000' },
                  { value: 'Eqp', qualifiers: ['P'], dateTime: '2024-01-02T00:00:00.000' },
                  { value: '', qualifiers: ['P'], dateTime: '2024-01-03T00:00:00.000' },
                  { value: '12.5', qualifiers: ['A', 'e'], dateTime: '2024-01-04T00:00:00.000' },
                ],
              },
            ],
          },
        ],
      },
    };
    expect(parseNwisDailyValues(body, '00060').values).to.deep.equal([{ date: '2024-01-04', value: 12.5, approvalStatus: 'approved', qualifiers: ['e'] }]);
    const ogc = {
      type: 'FeatureCollection',
      features: [
        { properties: { time: '2024-01-01', value: 'Ice', approval_status: 'Provisional', qualifier: ['ICE'] } },
        { properties: { time: '2024-01-02', value: '3.10', approval_status: 'Provisional', qualifier: ['ESTIMATED'] } },
      ],
    };
    expect(parseDailyItems(ogc).values).to.deep.equal([{ date: '2024-01-02', value: 3.1, approvalStatus: 'provisional', qualifiers: ['ESTIMATED'] }]);
  });

  it('asks the OGC API for the site with its agency prefix, the parameter code and the daily-mean statistic', () => {
    expect(dailySearchParams({ siteNumber: '01646500', parameter: 'gage_height', start: '2024-01-01', end: '2024-01-31' })).to.deep.equal({
      f: 'json',
      monitoring_location_id: 'USGS-01646500',
      parameter_code: '00065',
      statistic_id: '00003',
      datetime: '2024-01-01/2024-01-31',
      limit: 1000,
    });
    expect(monitoringLocationParams({ stateName: 'Maryland', stateCode: 'MD', limit: 5 })).to.deep.equal({
      f: 'json',
      state_name: 'Maryland',
      site_type_code: 'ST',
      limit: 5,
    });
    expect(monitoringLocationParams({ bbox: [-77.5, 38.5, -76.5, 39.5], limit: 5 })).to.deep.equal({
      f: 'json',
      bbox: '-77.5,38.5,-76.5,39.5',
      site_type_code: 'ST',
      limit: 5,
    });
  });
});
