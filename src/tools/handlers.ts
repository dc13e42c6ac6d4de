/**
 * The hand-written side of the generated route table: one handler per tool. A tool whose
 * connectors are not built yet answers 502 upstream_error (nothing is charged).
 */
import type { ToolHandlers } from '../../generated/routes.ts';
import type { ToolName } from '../../generated/types.ts';
import { ApiError } from '../errors.ts';
import type { ToolContext } from './context.ts';
import { listCapabilities } from './list-capabilities.ts';

function notAvailableYet(tool: ToolName): () => Promise<never> {
  return async () => {
    throw new ApiError('upstream_error', `${tool} is not available yet: its data-source connectors are not built in this version`);
  };
}

/** Tools that answer for real; the README's tool table is checked against this list. */
export const availableTools: ReadonlySet<ToolName> = new Set<ToolName>(['list_capabilities']);

export function createHandlers(): ToolHandlers<ToolContext> {
  return {
    list_capabilities: listCapabilities,
    create_figure: notAvailableYet('create_figure'),
    edit_figure: notAvailableYet('edit_figure'),
    get_figure: notAvailableYet('get_figure'),
    search_papers: notAvailableYet('search_papers'),
    get_paper: notAvailableYet('get_paper'),
    verify_references: notAvailableYet('verify_references'),
    check_retractions: notAvailableYet('check_retractions'),
    journal_info: notAvailableYet('journal_info'),
    search_grants: notAvailableYet('search_grants'),
    search_datasets: notAvailableYet('search_datasets'),
    find_series: notAvailableYet('find_series'),
    get_series: notAvailableYet('get_series'),
    lookup_gene_protein: notAvailableYet('lookup_gene_protein'),
    get_structure: notAvailableYet('get_structure'),
    search_clinical_trials: notAvailableYet('search_clinical_trials'),
    lookup_drug: notAvailableYet('lookup_drug'),
    search_expression_data: notAvailableYet('search_expression_data'),
    lookup_compound: notAvailableYet('lookup_compound'),
    lookup_material: notAvailableYet('lookup_material'),
    get_weather_history: notAvailableYet('get_weather_history'),
    search_earthquakes: notAvailableYet('search_earthquakes'),
    get_water_data: notAvailableYet('get_water_data'),
    search_species_occurrence: notAvailableYet('search_species_occurrence'),
    get_air_quality: notAvailableYet('get_air_quality'),
    lookup_astro_object: notAvailableYet('lookup_astro_object'),
    search_exoplanets: notAvailableYet('search_exoplanets'),
    query_gaia: notAvailableYet('query_gaia'),
    search_archives: notAvailableYet('search_archives'),
    lookup_integer_sequence: notAvailableYet('lookup_integer_sequence'),
  };
}
