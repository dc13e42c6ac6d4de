import { expect } from 'chai';
import { parsePlanet, parseReference } from '../../src/connectors/exoplanet-archive.ts';
import { brightestFirst, parseSource } from '../../src/connectors/gaia.ts';
import { normaliseIdentifier, parseObject } from '../../src/connectors/simbad.ts';
import { tapRows } from '../../src/connectors/tap.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

const rows = (source: string, text: string) => tapRows(source, parseJsonKeepingBigIntegers(text));

describeRecordings('gaia', () => {
  it('reads the recorded cone search with source_id exact as a string', () => {
    const sources = rows('gaia', recording('gaia', 'cone-search-dr3-top50-trimmed-3rows.json')).flatMap(parseSource);
    expect(sources).to.have.length(3);
    expect(sources[0]).to.deep.include({
      sourceId: '6636090334814214528',
      raDeg: 280.0002534562339,
      decDeg: -60.00259557514462,
      parallaxMas: 0.05755191318641077,
      parallaxErrorMas: 0.353266,
      pmRaMasYr: -0.1550174111492194,
      pmDecMasYr: -6.264602096381666,
    });
    expect(sources.every((source) => /^\d{19}$/.test(source.sourceId))).to.equal(true);
  });
  it('keeps the 64-bit id of the single-row answer exact', () => {
    const [source] = rows('gaia', recording('gaia', 'sync-top1-sourceid-ra-dec-parallax.json')).flatMap(parseSource);
    expect(source).to.deep.equal({
      sourceId: '5937144193345094528', raDeg: 251.46088614856114, decDeg: -50.77147594086373, distanceDeg: undefined, parallaxMas: 0.029992199777711163,
      parallaxErrorMas: undefined, pmRaMasYr: undefined, pmDecMasYr: undefined, gMag: undefined, bpMag: undefined, rpMag: undefined,
      radialVelocityKmS: undefined, teffK: undefined,
    });
  });
});

describeRecordings('exoplanet-archive', () => {
  it('reads the bare-array JSON layout of the archive\'s TAP service', () => {
    const recorded = rows('exoplanet-archive', recording('exoplanet-archive', 'tap-sync-ps-plname-discoverymethod-json-trimmed.json'));
    expect(recorded.slice(0, 2)).to.deep.equal([
      { pl_name: 'Kepler-11 c', discoverymethod: 'Transit' },
      { pl_name: 'Kepler-11 f', discoverymethod: 'Transit' },
    ]);
    // That table has no hostname column, so no planet record can be made from it.
    expect(recorded.flatMap(parsePlanet)).to.deep.equal([]);
  });
});

describe('astronomy connectors on the project fixtures', () => {
  it('SIMBAD: one object with normalised identifiers, an empty spectral type omitted', () => {
    expect(rows('simbad', fixture('simbad', 'hand-made-tap-m31.json')).flatMap(parseObject)).to.deep.equal([{
      mainId: 'M 31',
      objectType: 'Active Galaxy Nucleus',
      objectTypeCode: 'AGN',
      raDeg: 10.684708333333333,
      decDeg: 41.268750000000004,
      parallaxMas: undefined,
      pmRaMasYr: undefined,
      pmDecMasYr: undefined,
      radialVelocityKmS: -300,
      spectralType: undefined,
      vMagnitude: 3.44,
      identifiers: ['NGC 224', 'UGC 454', 'NAME Andromeda', 'NAME Andromeda Galaxy'],
    }]);
    expect(normaliseIdentifier('HD   8890')).to.equal('HD 8890');
  });
  it('Exoplanet Archive: composite rows with the discovery reference split into text and link', () => {
    const planets = rows('exoplanet-archive', fixture('exoplanet-archive', 'hand-made-pscomppars-trappist.json')).flatMap(parsePlanet);
    expect(planets[0]).to.deep.equal({
      planetName: 'TRAPPIST-1 e', hostStar: 'TRAPPIST-1', discoveryMethod: 'Transit', discoveryYear: 2017, orbitalPeriodDays: 6.101013, radiusEarth: 0.92,
      massEarth: 0.692, equilibriumTemperatureK: 250, insolationEarth: 0.66, distancePc: 12.429888, discoveryReference: 'Gillon et al. 2017',
      discoveryReferenceUrl: 'https://ui.adsabs.harvard.edu/abs/2017Natur.542..456G/abstract',
    });
    expect([planets[1]!.massEarth, planets[1]!.discoveryReference]).to.deep.equal([undefined, undefined]);
    expect(parseReference('Smith et al. 2020')).to.deep.equal({ text: 'Smith et al. 2020', url: undefined });
  });
  it('Gaia: brightest first, sources without a G magnitude last', () => {
    const sources = brightestFirst(rows('gaia', fixture('gaia', 'hand-made-cone-3rows.json')).flatMap(parseSource));
    expect(sources.map((source) => [source.sourceId, source.gMag])).to.deep.equal([
      ['6636090339112400000', 12.25],
      ['6636090334814214528', 19.5],
      ['6636090339113038336', undefined],
    ]);
  });
});
