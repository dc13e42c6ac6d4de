/**
 * The hand-written side of the generated route table: one handler per tool. Adding a tool adds one
 * entry here (and its import); a tool added to tools.yaml before its handler is written is a
 * compile error until it is. A tool whose sources are not built yet gets `notAvailableYet`, which
 * answers 502 and keeps it out of `availableTools`.
 */
import type { ToolHandlers } from '../../generated/routes.ts';
import type { ToolName } from '../../generated/types.ts';
import { ApiError } from '../errors.ts';
import type { ToolContext } from './context.ts';
import { createFigure } from './create-figure.ts';
import { editFigure } from './edit-figure.ts';
import { getAirQuality } from './get-air-quality.ts';
import { getFigure } from './get-figure.ts';
import { getStructure } from './get-structure.ts';
import { getWaterData } from './get-water-data.ts';
import { getWeatherHistory } from './get-weather-history.ts';
import { listCapabilities } from './list-capabilities.ts';
import { lookupAstroObject } from './lookup-astro-object.ts';
import { lookupCompound } from './lookup-compound.ts';
import { lookupMaterial } from './lookup-material.ts';
import { lookupDrug } from './lookup-drug.ts';
import { lookupGeneProtein } from './lookup-gene-protein.ts';
import { lookupIntegerSequence } from './lookup-integer-sequence.ts';
import { queryGaia } from './query-gaia.ts';
import { searchArchives } from './search-archives.ts';
import { searchClinicalTrials } from './search-clinical-trials.ts';
import { searchDatasets } from './search-datasets.ts';
import { searchGrants } from './search-grants.ts';
import { searchEarthquakes } from './search-earthquakes.ts';
import { searchExoplanets } from './search-exoplanets.ts';
import { searchSpeciesOccurrence } from './search-species-occurrence.ts';
import { checkRetractions } from './check-retractions.ts';
import { getPaper } from './get-paper.ts';
import { journalInfo } from './journal-info.ts';
import { searchPapers } from './search-papers.ts';
import { verifyReferences } from './verify-references.ts';
import { searchExpressionData } from './search-expression-data.ts';
import { findSeries } from './find-series.ts';
import { getSeries } from './get-series.ts';

export function createHandlers(): ToolHandlers<ToolContext> {
  return {
    list_capabilities: listCapabilities,
    create_figure: createFigure,
    edit_figure: editFigure,
    get_figure: getFigure,
    search_papers: searchPapers,
    get_paper: getPaper,
    verify_references: verifyReferences,
    check_retractions: checkRetractions,
    journal_info: journalInfo,
    search_grants: searchGrants,
    search_datasets: searchDatasets,
    find_series: findSeries,
    get_series: getSeries,
    lookup_gene_protein: lookupGeneProtein,
    get_structure: getStructure,
    search_clinical_trials: searchClinicalTrials,
    lookup_drug: lookupDrug,
    search_expression_data: searchExpressionData,
    lookup_compound: lookupCompound,
    lookup_material: lookupMaterial,
    get_weather_history: getWeatherHistory,
    search_earthquakes: searchEarthquakes,
    get_water_data: getWaterData,
    search_species_occurrence: searchSpeciesOccurrence,
    get_air_quality: getAirQuality,
    lookup_astro_object: lookupAstroObject,
    search_exoplanets: searchExoplanets,
    query_gaia: queryGaia,
    search_archives: searchArchives,
    lookup_integer_sequence: lookupIntegerSequence,
  };
}

/** The handler of a tool declared in tools.yaml whose sources are not built yet. */
export function notAvailableYet(tool: ToolName): () => never {
  const handler = (): never => {
    throw new ApiError('upstream_error', `${tool} is not available yet; it is declared but its sources are not connected`);
  };
  unavailable.add(handler);
  return handler;
}
const unavailable = new WeakSet<object>();

/** Tools that answer for real: every tool of the handler table but those that are `notAvailableYet`. */
export const availableTools: ReadonlySet<ToolName> = new Set(
  (Object.entries(createHandlers()) as Array<[ToolName, object]>).filter(([, handler]) => !unavailable.has(handler)).map(([tool]) => tool),
);
