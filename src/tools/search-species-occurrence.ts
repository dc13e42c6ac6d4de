/**
 * search_species_occurrence: the name is matched to a GBIF backbone taxon (as a scientific name, else
 * as a common name), then its occurrences are searched with the CC0 / CC BY filter pushed down to
 * GBIF. `extra` says which taxon was chosen and how many records GBIF holds in all.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { SearchSpeciesOccurrenceArgs, SearchSpeciesOccurrenceData, SearchSpeciesOccurrenceExtra } from '../../generated/types.ts';
import * as gbif from '../connectors/gbif.ts';
import { Join } from '../life/parts.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { ToolContext } from './context.ts';
import { compact, count, makeRecord } from './result.ts';

type Data = SearchSpeciesOccurrenceData;
type Extra = SearchSpeciesOccurrenceExtra;

/** A scientific-name match; a common name when that finds nothing better than a higher rank. */
async function resolveTaxon(upstream: UpstreamClient, name: string): Promise<gbif.Taxon | undefined> {
  const { taxon } = await gbif.matchSpecies(upstream, name);
  if (taxon && taxon.matchType !== 'HIGHERRANK') return taxon;
  return (await gbif.searchVernacular(upstream, name)).taxon ?? taxon;
}

const accessed = (retrievedAt: string) => retrievedAt.slice(0, 10);

export const searchSpeciesOccurrence: ToolHandler<SearchSpeciesOccurrenceArgs, Data, ToolContext, Extra> = async (args, context) => {
  const upstream = context.upstream;
  const species = args.species.trim();
  const join = new Join((source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'));
  const found = await join.attempt(gbif.SOURCE, 'occurrences', async () => {
    const taxon = await resolveTaxon(upstream, species);
    if (!taxon) return { taxon };
    const query = {
      taxonKey: taxon.key,
      country: args.country,
      yearFrom: args.year_from,
      yearTo: args.year_to,
      hasCoordinates: args.has_coordinates,
      limit: args.limit,
    };
    return { taxon, ...(await gbif.searchOccurrences(upstream, query)) };
  });
  if (!found?.taxon) return join.outcome<Data>([], found ? `No GBIF taxon matches "${species}".` : '');
  const { taxon } = found;
  const records = (found.occurrences ?? []).map((occurrence) => {
    const record = makeRecord<Data>(upstream, gbif.SOURCE, {
      nativeId: occurrence.key,
      type: 'occurrence',
      title: occurrence.scientificName || undefined,
      url: gbif.occurrenceUrl(occurrence.key),
      retrievedAt: found.retrievedAt!,
      data: {
        occurrence_key: occurrence.key,
        scientific_name: occurrence.scientificName,
        taxon_key: taxon.key,
        latitude: occurrence.latitude,
        longitude: occurrence.longitude,
        coordinate_uncertainty_m: occurrence.coordinateUncertaintyM,
        event_date: occurrence.eventDate,
        year: occurrence.year,
        country_code: occurrence.countryCode,
        country: occurrence.country,
        basis_of_record: occurrence.basisOfRecord,
        dataset_key: occurrence.datasetKey,
        dataset_name: occurrence.datasetName,
        license: occurrence.license,
        occurrence_url: gbif.occurrenceUrl(occurrence.key),
      },
    });
    // Each record carries its own licence; attribution goes to GBIF.org on the access date and to the publishing dataset.
    const dataset = occurrence.datasetName ?? (occurrence.datasetKey ? `dataset ${occurrence.datasetKey}` : undefined);
    return {
      ...record,
      license: occurrence.license,
      attribution: `GBIF.org (accessed ${accessed(found.retrievedAt!)}) GBIF Occurrence Search${dataset ? `; ${dataset}` : ''}`,
    };
  });
  const total = found.count ?? 0;
  const outcome = join.outcome(
    records,
    `${taxon.canonicalName} (${taxon.rank.toLowerCase()}, GBIF taxon ${taxon.key}, ${taxon.matchType.toLowerCase()} match): ${count(total, 'CC0 or CC BY record')} at GBIF, ${records.length} returned.`,
  );
  const extra: Extra = {
    taxon: compact({
      key: taxon.key,
      canonical_name: taxon.canonicalName,
      scientific_name: taxon.scientificName,
      rank: taxon.rank,
      match_type: taxon.matchType,
      confidence: taxon.confidence,
    }),
    total_count: total,
  };
  return { ...outcome, extra };
};
