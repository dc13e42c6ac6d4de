import { expect } from 'chai';
import { occurrenceSearchParams, openLicense, parseMatch, parseOccurrences, parseVernacular } from '../../src/connectors/gbif.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { openLicensedDenmark } from '../earth/gbif-variant.ts';
import { describeRecordings, recording } from './recordings.ts';

const json = (file: string) => parseJsonKeepingBigIntegers(recording('gbif', file));

describeRecordings('gbif', () => {
  it('reads the v2 and v1 exact matches to the same taxon, the key a number', () => {
    const expected = {
      key: 9206251,
      canonicalName: 'Helianthus annuus',
      scientificName: 'Helianthus annuus L.',
      rank: 'SPECIES',
      matchType: 'EXACT',
      confidence: 99,
    };
    expect(parseMatch(json('species-match-v2-exact-helianthus-annuus.json'))).to.deep.equal(expected);
    expect(parseMatch(json('species-match-v1-exact-helianthus-annuus.json'))).to.deep.equal(expected);
  });

  it('reads matchType NONE (v1 and v2) as no taxon', () => {
    expect(parseMatch(json('species-match-v1-none-aso.json'))).to.equal(undefined);
    expect(parseMatch(json('species-match-v2-none-calopteryx-fakeus.json'))).to.equal(undefined);
  });

  it('drops records under CC BY-NC (their licence is a URL) but keeps the total count', () => {
    expect(parseOccurrences(json('occurrence-search-country-dk-specieskey-limit2.json'))).to.deep.equal({ count: 1335, occurrences: [] });
    expect(parseOccurrences(json('occurrence-search-recordedbyid-limit3.json'))).to.deep.equal({ count: 1979, occurrences: [] });
  });

  it('reads occurrence records with exact values when their licence is open', () => {
    const parsed = parseOccurrences(openLicensedDenmark());
    expect(parsed.occurrences).to.deep.equal([
      {
        key: '5154080929',
        scientificName: 'Calopteryx splendens (Harris, 1780)',
        latitude: 55.999455,
        longitude: 12.249647,
        coordinateUncertaintyM: 4,
        eventDate: '2025-05-11T16:01:05',
        year: 2025,
        countryCode: 'DK',
        country: 'Denmark',
        basisOfRecord: 'HUMAN_OBSERVATION',
        datasetKey: '50c9509d-22c7-4a22-a47d-8c48425ef4a7',
        datasetName: 'iNaturalist research-grade observations',
        license: 'CC-BY-4.0',
      },
      {
        key: '5154480463',
        scientificName: 'Calopteryx splendens (Harris, 1780)',
        latitude: 55.293915,
        longitude: 10.277037,
        coordinateUncertaintyM: 1700,
        eventDate: '2025-05-13T19:15:07',
        year: 2025,
        countryCode: 'DK',
        country: 'Denmark',
        basisOfRecord: 'HUMAN_OBSERVATION',
        datasetKey: '50c9509d-22c7-4a22-a47d-8c48425ef4a7',
        datasetName: 'iNaturalist research-grade observations',
        license: 'CC0-1.0',
      },
    ]);
  });
});

describe('gbif connector', () => {
  it('maps licence URLs back to the two open licences and nothing else', () => {
    expect([
      openLicense('http://creativecommons.org/licenses/by/4.0/legalcode'),
      openLicense('https://creativecommons.org/licenses/by/4.0/'),
      openLicense('http://creativecommons.org/publicdomain/zero/1.0/legalcode'),
      openLicense('CC0_1_0'),
      openLicense('http://creativecommons.org/licenses/by-nc/4.0/legalcode'),
      openLicense(undefined),
    ]).to.deep.equal(['CC-BY-4.0', 'CC-BY-4.0', 'CC0-1.0', 'CC0-1.0', undefined, undefined]);
  });

  it('pushes the licence filter down by enum names, with the year range, country and coordinates filters', () => {
    expect(occurrenceSearchParams({ taxonKey: 1427067, country: 'dk', yearFrom: 2000, hasCoordinates: true, limit: 50 }).toString()).to.equal(
      'taxonKey=1427067&occurrenceStatus=PRESENT&limit=50&offset=0&license=CC0_1_0&license=CC_BY_4_0&hasCoordinate=true&hasGeospatialIssue=false&country=DK&year=2000%2C*',
    );
  });

  it('reads a vernacular-name search (hand-made, documented shape) to its backbone taxon', () => {
    const body = {
      results: [{ key: 180092811, nubKey: 9206251, canonicalName: 'Helianthus annuus', scientificName: 'Helianthus annuus L.', rank: 'SPECIES' }],
    };
    expect(parseVernacular(body)).to.deep.equal({
      key: 9206251,
      canonicalName: 'Helianthus annuus',
      scientificName: 'Helianthus annuus L.',
      rank: 'SPECIES',
      matchType: 'VERNACULAR',
    });
    expect(parseVernacular({ results: [] })).to.equal(undefined);
  });
});
