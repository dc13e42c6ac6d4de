import { expect } from 'chai';
import { parsePlanet, parseReference, readPlanets } from '../../src/connectors/exoplanet-archive.ts';
import { brightestFirst, coneQuery, parseSource } from '../../src/connectors/gaia.ts';
import { normaliseIdentifier, objectQuery, parseObject } from '../../src/connectors/simbad.ts';
import { tapAnswerRows, tapRows } from '../../src/connectors/tap.ts';
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
  it('reads the recorded TABLEDATA VOTable (the TAP default) with source_id exact as a string', () => {
    const recorded = tapAnswerRows('gaia', recording('gaia', 'source-id-query-dr3-2rows.vot.xml'));
    expect(recorded).to.have.length(2);
    expect(Object.keys(recorded[0]!)).to.have.length(152);
    expect([recorded[0]!.source_id, recorded[0]!.designation, recorded[0]!.solution_id]).to.deep.equal([
      '4583627001381815936',
      'Gaia DR3 4583627001381815936',
      '1636148068921376768',
    ]);
    expect(brightestFirst(recorded.flatMap(parseSource))).to.deep.equal([
      {
        sourceId: '4583627001381815936',
        raDeg: 268.0676646661466,
        decDeg: 26.50748605871529,
        distanceDeg: undefined,
        parallaxMas: 2.3034086430210925,
        parallaxErrorMas: 0.03333763,
        pmRaMasYr: -8.5440331309214,
        pmDecMasYr: -27.67299135507808,
        gMag: 7.0120187,
        bpMag: 9.272621,
        rpMag: 5.6080775,
        radialVelocityKmS: -20.302576,
        teffK: undefined, // teff_gspphot is NaN, the TABLEDATA null of a float
      },
      {
        sourceId: '5348723816842275584',
        raDeg: 171.55081173633306,
        decDeg: -51.3606309660715,
        distanceDeg: undefined,
        parallaxMas: 1.0704678100897584,
        parallaxErrorMas: 0.04194041,
        pmRaMasYr: -12.518990461622858,
        pmDecMasYr: 2.7709983154619877,
        gMag: 7.0179033,
        bpMag: 9.790323,
        rpMag: 5.5675364,
        radialVelocityKmS: -8.207155,
        teffK: undefined,
      },
    ]);
  });
  it('every column the cone query selects is a gaia_source column of the recorded answer to SELECT *', () => {
    const columns = Object.keys(tapAnswerRows('gaia', recording('gaia', 'source-id-query-dr3-2rows.vot.xml'))[0]!);
    const selected = /^SELECT TOP \d+ (.*?), DISTANCE\(/
      .exec(coneQuery({ ra: 1, dec: 2, radiusDeg: 0.1, limit: 5 }))![1]!
      .split(',')
      .map((column) => column.trim());
    expect(selected).to.have.length(12);
    expect(selected.filter((column) => !columns.includes(column))).to.deep.equal([]);
  });
  it('keeps the 64-bit id of the single-row answer exact', () => {
    const [source] = rows('gaia', recording('gaia', 'sync-top1-sourceid-ra-dec-parallax.json')).flatMap(parseSource);
    expect(source).to.deep.equal({
      sourceId: '5937144193345094528',
      raDeg: 251.46088614856114,
      decDeg: -50.77147594086373,
      distanceDeg: undefined,
      parallaxMas: 0.029992199777711163,
      parallaxErrorMas: undefined,
      pmRaMasYr: undefined,
      pmDecMasYr: undefined,
      gMag: undefined,
      bpMag: undefined,
      rpMag: undefined,
      radialVelocityKmS: undefined,
      teffK: undefined,
    });
  });
});

describeRecordings('exoplanet-archive', () => {
  it("reads the bare-array JSON layout of the archive's TAP service: rows of a narrower query are planets with what they carry", () => {
    const recorded = rows('exoplanet-archive', recording('exoplanet-archive', 'tap-sync-ps-plname-discoverymethod-json-trimmed.json'));
    expect(recorded).to.have.length(8);
    expect(recorded.slice(0, 2)).to.deep.equal([
      { pl_name: 'Kepler-11 c', discoverymethod: 'Transit' },
      { pl_name: 'Kepler-11 f', discoverymethod: 'Transit' },
    ]);
    expect(readPlanets(recorded).map((planet) => [planet.planetName, planet.hostStar, planet.discoveryMethod])).to.deep.equal([
      ['Kepler-11 c', undefined, 'Transit'],
      ['Kepler-11 f', undefined, 'Transit'],
      ['HAT-P-1 b', undefined, 'Transit'],
      ['OGLE-TR-10 b', undefined, 'Transit'],
      ['TrES-2 b', undefined, 'Transit'],
      ['WASP-3 b', undefined, 'Transit'],
      ['47 UMa b', undefined, 'Radial Velocity'],
      ['47 UMa d', undefined, 'Radial Velocity'],
    ]);
  });
  it('reads the k2names answer in the same layout (a table the connector never queries: it has no planet parameters)', () => {
    const recorded = rows('exoplanet-archive', recording('exoplanet-archive', 'tap-sync-k2names-json-trimmed.json'));
    expect(recorded[0]).to.deep.equal({ epic_id: 'EPIC 246199087', k2_name: 'K2-112 f', pl_name: 'TRAPPIST-1 f' });
    expect(recorded.map((row) => row.pl_name)).to.deep.equal(['TRAPPIST-1 f', 'TRAPPIST-1 h', 'HD 3167 d', 'K2-117 c', 'K2-125 b']);
  });
  it('an answer whose rows have no pl_name column is a reported failure, not "no planets"', () => {
    expect(() => readPlanets([{ epic_id: 'EPIC 246199087', k2_name: 'K2-112 f' }])).to.throw('exoplanet-archive answered rows without the column pl_name');
  });
});

describeRecordings('simbad', () => {
  it("reads the cone service's VOTable: its basic columns carry the names the TAP query selects", () => {
    // The connector asks the TAP service; no TAP answer was ever recorded. The cone service answers
    // from the same `basic` table in a TABLEDATA VOTable, so the same reader and row parser apply.
    const recorded = tapAnswerRows('simbad', recording('simbad', 'cone-search-mivot-barnards-star.vot.xml'));
    expect(recorded).to.have.length(1);
    expect(recorded[0]).to.deep.include({
      main_id: "NAME Barnard's Star c",
      otype: 'Planet',
      coo: '17  57  48.4984700683 +04  41  36.113879675',
      biblist: 1,
      rvz_radvel: null,
    });
    expect(recorded.flatMap(parseObject)).to.deep.equal([
      {
        mainId: "NAME Barnard's Star c",
        // The cone service's `otype` is a label ("Planet"), not TAP's short code: it fills neither field.
        objectType: undefined,
        objectTypeCode: undefined,
        raDeg: 269.452076958619,
        decDeg: 4.69336496657667,
        parallaxMas: 546.9759,
        pmRaMasYr: -801.551,
        pmDecMasYr: 10362.394,
        radialVelocityKmS: undefined,
        spectralType: undefined,
        vMagnitude: undefined,
        identifiers: undefined,
      },
    ]);
  });
  it('every basic column the TAP query selects is a column of the recorded cone answer, under the same name', () => {
    const columns = Object.keys(tapAnswerRows('simbad', recording('simbad', 'cone-search-mivot-barnards-star.vot.xml'))[0]!);
    const selected = [
      ...objectQuery('M 1')
        .split(' FROM ')[0]!
        .matchAll(/basic\.(\w+)(?: AS (\w+))?/g),
    ].map(([, column, alias]) => [column, alias ?? column]);
    expect(selected.map(([column]) => column)).to.deep.equal(['main_id', 'otype', 'ra', 'dec', 'plx_value', 'pmra', 'pmdec', 'rvz_radvel', 'sp_type']);
    expect(selected.filter(([column]) => !columns.includes(column!))).to.deep.equal([]);
    // Each keeps its name but the type code, whose name the cone service gives to a label.
    expect(selected.filter(([column, alias]) => column !== alias)).to.deep.equal([['otype', 'otype_code']]);
  });
  it('reads the VOTable inside a script-interface answer (an interface the connector never calls: it resolves names through TAP)', () => {
    const answer = recording('simbad', 'sim-script-query-id-m1-votable.txt');
    const votable = answer.slice(answer.indexOf('<?xml'));
    expect(tapAnswerRows('simbad', votable)).to.deep.equal([
      {
        MAIN_ID: 'M   1',
        RA: '05 34 31.94',
        DEC: '+22 00 52.2',
        RA_PREC: 6,
        DEC_PREC: 6,
        COO_ERR_MAJA: null,
        COO_ERR_MINA: null,
        COO_ERR_ANGLE: null,
        COO_QUAL: 'C',
        COO_WAVELENGTH: 'Rad',
        COO_BIBCODE: '2011A&A...533A..10L',
      },
    ]);
    // The error answer's VOTable is cut off after its table header: no rows.
    const failed = recording('simbad', 'sim-script-error-votable.txt');
    expect(failed).to.include('::error::');
    expect(tapAnswerRows('simbad', failed.slice(failed.indexOf('<?xml')))).to.deep.equal([]);
  });
  it('the identifier-list script answer is plain text of an interface the connector never calls; its spacing is what normaliseIdentifier undoes', () => {
    const lines = recording('simbad', 'sim-script-idlist-polaris.txt').split('\n');
    expect(lines).to.include.members(['HD   8890', 'HIP  11767', '* alf UMi', 'NAME POLARIS']);
    expect(['HD   8890', 'HIP  11767'].map(normaliseIdentifier)).to.deep.equal(['HD 8890', 'HIP 11767']);
  });
});

describe('astronomy connectors on the project fixtures', () => {
  it('SIMBAD: one object with normalised identifiers, an empty spectral type omitted', () => {
    expect(rows('simbad', fixture('simbad', 'hand-made-tap-m31.json')).flatMap(parseObject)).to.deep.equal([
      {
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
      },
    ]);
    expect(normaliseIdentifier('HD   8890')).to.equal('HD 8890');
  });
  it('Exoplanet Archive: composite rows with the discovery reference split into text and link', () => {
    const planets = rows('exoplanet-archive', fixture('exoplanet-archive', 'hand-made-pscomppars-trappist.json')).flatMap(parsePlanet);
    expect(planets[0]).to.deep.equal({
      planetName: 'TRAPPIST-1 e',
      hostStar: 'TRAPPIST-1',
      discoveryMethod: 'Transit',
      discoveryYear: 2017,
      orbitalPeriodDays: 6.101013,
      radiusEarth: 0.92,
      massEarth: 0.692,
      equilibriumTemperatureK: 250,
      insolationEarth: 0.66,
      distancePc: 12.429888,
      discoveryReference: 'Gillon et al. 2017',
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
