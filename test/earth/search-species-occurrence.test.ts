import { expect } from 'chai';
import { openLicensedDenmark } from './gbif-variant.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { down, expectCharged, expectNotCharged, sourcesHarness, recorded } from '../life/support.ts';

const WITH_EXTRA = ['summary', 'records', 'extra', 'credits_used', 'call_id'];

describeOnEachEngine('search_species_occurrence over HTTP', (engine) => {
  const earth = sourcesHarness(engine, ['gbif'] as const);

  it('resolves the name, says which taxon was chosen and the total count, and returns only CC0 / CC BY records', async () => {
    earth.on('gbif', '/v2/species/match', recorded('gbif', 'species-match-v2-exact-helianthus-annuus.json'));
    earth.on('gbif', '/v1/occurrence/search', json(openLicensedDenmark()));
    const result = await earth.charged('search_species_occurrence', { species: 'Helianthus annuus', country: 'dk', year_from: 2020, year_to: 2025, limit: 2 });
    expectCharged(result, WITH_EXTRA);
    const body = result.answer.body;
    expect(body.extra).to.deep.equal({
      taxon: {
        key: 9206251,
        canonical_name: 'Helianthus annuus',
        scientific_name: 'Helianthus annuus L.',
        rank: 'SPECIES',
        match_type: 'EXACT',
        confidence: 99,
      },
      total_count: 1335,
    });
    expect(body.summary).to.equal('Helianthus annuus (species, GBIF taxon 9206251, exact match): 1335 CC0 or CC BY records at GBIF, 2 returned.');
    const date = body.records[0].retrievedAt.slice(0, 10);
    expect({ ...body.records[0], retrievedAt: undefined }).to.deep.equal({
      id: 'gbif:5154080929',
      type: 'occurrence',
      source: 'gbif',
      title: 'Calopteryx splendens (Harris, 1780)',
      url: 'https://www.gbif.org/occurrence/5154080929',
      license: 'CC-BY-4.0',
      attribution: `GBIF.org (accessed ${date}) GBIF Occurrence Search; iNaturalist research-grade observations`,
      retrievedAt: undefined,
      data: {
        occurrence_key: '5154080929',
        scientific_name: 'Calopteryx splendens (Harris, 1780)',
        taxon_key: 9206251,
        latitude: 55.999455,
        longitude: 12.249647,
        coordinate_uncertainty_m: 4,
        event_date: '2025-05-11T16:01:05',
        year: 2025,
        country_code: 'DK',
        country: 'Denmark',
        basis_of_record: 'HUMAN_OBSERVATION',
        dataset_key: '50c9509d-22c7-4a22-a47d-8c48425ef4a7',
        dataset_name: 'iNaturalist research-grade observations',
        license: 'CC-BY-4.0',
        occurrence_url: 'https://www.gbif.org/occurrence/5154080929',
      },
    });
    expect(body.records[1].license).to.equal('CC0-1.0');
    const query = earth.hits('gbif', '/v1/occurrence/search')[0]!.query;
    expect([
      query.getAll('license'),
      query.get('taxonKey'),
      query.get('country'),
      query.get('year'),
      query.get('hasCoordinate'),
      query.get('limit'),
    ]).to.deep.equal([['CC0_1_0', 'CC_BY_4_0'], '9206251', 'DK', '2020,2025', 'true', '2']);
  });

  it('records under CC BY-NC are never returned, even when GBIF sends them', async () => {
    earth.on('gbif', '/v2/species/match', recorded('gbif', 'species-match-v2-exact-helianthus-annuus.json'));
    earth.on('gbif', '/v1/occurrence/search', recorded('gbif', 'occurrence-search-country-dk-specieskey-limit2.json'));
    const result = await earth.charged('search_species_occurrence', { species: 'Helianthus annuus' });
    expectCharged(result, WITH_EXTRA);
    expect([result.answer.body.records, result.answer.body.extra.total_count]).to.deep.equal([[], 1335]);
  });

  it('a common name is looked up as a vernacular name when the scientific match finds nothing', async () => {
    earth.on('gbif', '/v2/species/match', recorded('gbif', 'species-match-v2-none-calopteryx-fakeus.json'));
    earth.on(
      'gbif',
      '/v1/species/search',
      json({ results: [{ key: 180092811, nubKey: 9206251, canonicalName: 'Helianthus annuus', scientificName: 'Helianthus annuus L.', rank: 'SPECIES' }] }),
    );
    earth.on('gbif', '/v1/occurrence/search', json(openLicensedDenmark()));
    const result = await earth.charged('search_species_occurrence', { species: 'common sunflower' });
    expectCharged(result, WITH_EXTRA);
    expect(result.answer.body.extra.taxon).to.deep.equal({
      key: 9206251,
      canonical_name: 'Helianthus annuus',
      scientific_name: 'Helianthus annuus L.',
      rank: 'SPECIES',
      match_type: 'VERNACULAR',
    });
    expect(earth.hits('gbif', '/v1/species/search')[0]!.query.get('qField')).to.equal('VERNACULAR');
  });

  it('no taxon at all is an answer with no records, charged', async () => {
    earth.on('gbif', '/v2/species/match', recorded('gbif', 'species-match-v2-none-calopteryx-fakeus.json'));
    earth.on('gbif', '/v1/species/search', json({ results: [] }));
    const result = await earth.charged('search_species_occurrence', { species: 'Calopteryx fakeus' });
    expectCharged(result);
    expect(result.answer.body.summary).to.equal('No GBIF taxon matches "Calopteryx fakeus".');
  });

  it('is a 502, not charged, when GBIF fails', async () => {
    earth.on('gbif', '/v2/species/match', recorded('gbif', 'species-match-v2-exact-helianthus-annuus.json'));
    earth.on('gbif', '/v1/occurrence/search', down);
    expectNotCharged(await earth.charged('search_species_occurrence', { species: 'Helianthus annuus' }));
  });

  it('rejects a three-letter country with 400 naming the field', async () => {
    const result = await earth.charged('search_species_occurrence', { species: 'Helianthus annuus', country: 'DNK' });
    expectNotCharged(result, 400, 'invalid_input');
    expect(result.answer.body.error.message).to.match(/^country: /);
  });
});
