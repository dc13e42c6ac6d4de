import { expect } from 'chai';
import { eventSearchParams, parseEventCollection } from '../../src/connectors/usgs-earthquakes.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

const parse = (text: string) => parseEventCollection(parseJsonKeepingBigIntegers(text));

describeRecordings('usgs-earthquakes', () => {
  it('reads the Northridge event with its exact values', () => {
    expect(parse(recording('usgs-earthquakes', 'query-northridge-m6.6-one-result.json'))).to.deep.equal([
      {
        eventId: 'ci3144585',
        magnitude: 6.7,
        magnitudeType: 'mw',
        time: '1994-01-17T12:30:55.390Z',
        place: '1km NNW of Reseda, CA',
        latitude: 34.213,
        longitude: -118.537,
        depthKm: 18.202,
        eventUrl: 'https://earthquake.usgs.gov/earthquakes/eventpage/ci3144585',
        title: 'M 6.7 - 1km NNW of Reseda, CA',
      },
    ]);
  });
  it('leaves out the magnitude of an event that has none, and keeps a negative depth', () => {
    const events = parse(recording('usgs-earthquakes', 'query-three-results-null-magnitude.json'));
    expect(events.map((event) => event.eventId)).to.deep.equal(['ci38088992', 'nc72955525', 'nc72955530']);
    expect(events[1]).to.deep.equal({
      eventId: 'nc72955525',
      magnitude: undefined,
      magnitudeType: undefined,
      time: '2018-01-18T05:56:17.200Z',
      place: '1km W of Anderson Springs, CA',
      latitude: 38.7758333,
      longitude: -122.7026667,
      depthKm: 2.69,
      eventUrl: 'https://earthquake.usgs.gov/earthquakes/eventpage/nc72955525',
      title: 'M ? - 1km W of Anderson Springs, CA',
    });
    expect(events[2]!.depthKm).to.equal(-0.68);
  });
  it('reads an empty collection as no events', () => {
    expect(parse(recording('usgs-earthquakes', 'query-empty-result.json'))).to.deep.equal([]);
  });
});

describe('usgs-earthquakes connector', () => {
  it('reads the project fixture', () => {
    expect(parse(fixture('usgs-earthquakes', 'hand-made-two-events.json')).map((event) => [event.eventId, event.magnitude])).to.deep.equal([
      ['ci40000001', 4.6],
      ['nc70000002', undefined],
    ]);
  });
  it('asks for a circle only when both coordinates are given, and orders by time or magnitude', () => {
    const base = { startTime: '2026-01-01T00:00:00', endTime: '2026-01-31T23:59:59', limit: 20, order: 'time' as const };
    expect(eventSearchParams({ ...base, latitude: 34, longitude: -118, radiusKm: 100, minMagnitude: 4.5 })).to.deep.equal({
      format: 'geojson',
      starttime: '2026-01-01T00:00:00',
      endtime: '2026-01-31T23:59:59',
      latitude: 34,
      longitude: -118,
      maxradiuskm: 100,
      minmagnitude: 4.5,
      orderby: 'time',
      limit: 20,
      eventtype: 'earthquake',
    });
    const noCircle = eventSearchParams({ ...base, latitude: 34, radiusKm: 100, order: 'magnitude' });
    expect([noCircle.latitude, noCircle.maxradiuskm, noCircle.orderby]).to.deep.equal([undefined, undefined, 'magnitude']);
  });
  it('refuses JSON that is not a FeatureCollection', () => {
    expect(() => parseEventCollection({ type: 'Feature' })).to.throw('usgs-earthquakes answered with JSON that is not a GeoJSON FeatureCollection');
  });
});
