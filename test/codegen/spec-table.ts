/**
 * The tools of the contract, written down by hand from spec parts 4.2 and 8 — deliberately NOT
 * derived from tools.yaml, so a test can hold the generated OpenAPI against the spec itself.
 */
export interface SpecArgument {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'any';
  required?: true;
  enum?: Array<string | number>;
  itemsEnum?: string[];
  default?: unknown;
}

export interface SpecTool {
  pack: 'general' | 'life' | 'chem' | 'earth' | 'astro' | 'humanities';
  credits: number;
  args: Record<string, SpecArgument>;
}

const packs = ['general', 'life', 'chem', 'earth', 'astro', 'humanities'];
const limit = (value: number): SpecArgument => ({ type: 'integer', default: value });
const optionalString: SpecArgument = { type: 'string' };
const requiredString: SpecArgument = { type: 'string', required: true };

export const specTools: Record<string, SpecTool> = {
  list_capabilities: { pack: 'general', credits: 0, args: { discipline: { type: 'string', enum: packs } } },
  create_figure: {
    pack: 'general',
    credits: 0,
    args: {
      description: requiredString,
      kind: { type: 'string', enum: ['mechanism', 'workflow', 'graphical_abstract', 'schematic', 'poster_panel'], default: 'schematic' },
      style: { type: 'string', enum: ['nature', 'cell', 'minimal_line', 'flat_color', 'textbook'], default: 'nature' },
      labels: { type: 'array' },
      aspect_ratio: { type: 'string', enum: ['16:9', '4:3', '1:1', '3:4', '9:16'] },
    },
  },
  edit_figure: { pack: 'general', credits: 0, args: { figure_id: requiredString, instruction: requiredString } },
  get_figure: { pack: 'general', credits: 0, args: { figure_id: requiredString } },
  search_papers: {
    pack: 'general',
    credits: 1,
    args: {
      query: requiredString,
      year_from: { type: 'integer' },
      year_to: { type: 'integer' },
      open_access_only: { type: 'boolean' },
      sources: {
        type: 'array',
        itemsEnum: ['openalex', 'pubmed', 'arxiv', 'inspire-hep', 'eric', 'crossref', 'dblp'],
        default: ['openalex', 'pubmed', 'arxiv'],
      },
      limit: limit(10),
    },
  },
  get_paper: { pack: 'general', credits: 1, args: { id: requiredString } },
  lookup_gene_protein: {
    pack: 'life',
    credits: 1,
    args: {
      query: requiredString,
      organism: { type: 'string', default: 'human' },
      include: { type: 'array', itemsEnum: ['domains', 'pathways', 'interactions'], default: ['domains', 'pathways', 'interactions'] },
    },
  },
  get_structure: { pack: 'life', credits: 1, args: { id: optionalString, query: optionalString, limit: limit(10) } },
  search_clinical_trials: {
    pack: 'life',
    credits: 1,
    args: {
      condition: optionalString,
      intervention: optionalString,
      phase: { type: 'integer', enum: [1, 2, 3, 4] },
      status: {
        type: 'string',
        enum: [
          'recruiting',
          'not_yet_recruiting',
          'active_not_recruiting',
          'completed',
          'terminated',
          'suspended',
          'withdrawn',
          'enrolling_by_invitation',
          'unknown',
        ],
      },
      country: optionalString,
      query: optionalString,
      limit: limit(10),
    },
  },
  lookup_drug: {
    pack: 'life',
    credits: 1,
    args: {
      name: requiredString,
      include: { type: 'array', itemsEnum: ['targets', 'adverse_events', 'label'], default: ['targets', 'adverse_events', 'label'] },
    },
  },
  search_expression_data: {
    pack: 'life',
    credits: 1,
    args: { gene: optionalString, query: optionalString, organism: optionalString, limit: limit(10) },
  },
  lookup_compound: { pack: 'chem', credits: 1, args: { query: requiredString } },
  lookup_material: {
    pack: 'chem',
    credits: 1,
    args: {
      formula: optionalString,
      elements: { type: 'array' },
      material_id: optionalString,
      stable_only: { type: 'boolean' },
      limit: limit(10),
    },
  },
  search_grants: {
    pack: 'general',
    credits: 1,
    args: {
      query: requiredString,
      funder: { type: 'string', enum: ['nih', 'nsf', 'ukri'] },
      pi_name: optionalString,
      organization: optionalString,
      year_from: { type: 'integer' },
      year_to: { type: 'integer' },
      limit: limit(10),
    },
  },
  search_datasets: {
    pack: 'general',
    credits: 1,
    args: {
      query: requiredString,
      sources: {
        type: 'array',
        itemsEnum: ['zenodo', 'dryad', 'dataverse', 'huggingface', 'datacite'],
        default: ['zenodo', 'dryad', 'dataverse', 'huggingface', 'datacite'],
      },
      limit: limit(10),
    },
  },
  find_series: {
    pack: 'general',
    credits: 1,
    args: {
      query: requiredString,
      sources: {
        type: 'array',
        itemsEnum: ['fred', 'world-bank', 'bls', 'oecd', 'eurostat', 'imf', 'owid', 'census'],
        default: ['fred', 'world-bank', 'bls', 'oecd', 'eurostat', 'imf', 'owid', 'census'],
      },
      limit: limit(10),
    },
  },
  get_series: {
    pack: 'general',
    credits: 1,
    args: { series_id: requiredString, start: optionalString, end: optionalString, country: optionalString },
  },
  verify_references: { pack: 'general', credits: 2, args: { references: { type: 'any', required: true } } },
  check_retractions: { pack: 'general', credits: 2, args: { dois: { type: 'array' }, references: optionalString } },
  journal_info: { pack: 'general', credits: 1, args: { journal: requiredString } },
  get_weather_history: {
    pack: 'earth',
    credits: 1,
    args: {
      latitude: { type: 'number', required: true },
      longitude: { type: 'number', required: true },
      start: requiredString,
      end: requiredString,
      variables: {
        type: 'array',
        itemsEnum: ['temperature_max', 'temperature_min', 'temperature_mean', 'precipitation', 'relative_humidity', 'wind_speed', 'solar_radiation'],
        default: ['temperature_max', 'temperature_min', 'temperature_mean', 'precipitation'],
      },
      aggregate: { type: 'string', enum: ['daily', 'monthly'], default: 'daily' },
    },
  },
  search_earthquakes: {
    pack: 'earth',
    credits: 1,
    args: {
      latitude: { type: 'number' },
      longitude: { type: 'number' },
      radius_km: { type: 'number', default: 100 },
      min_magnitude: { type: 'number' },
      start: optionalString,
      end: optionalString,
      limit: limit(20),
      order: { type: 'string', enum: ['time', 'magnitude'], default: 'time' },
    },
  },
  get_water_data: {
    pack: 'earth',
    credits: 1,
    args: {
      site: optionalString,
      state: optionalString,
      bbox: { type: 'array' },
      parameter: { type: 'string', enum: ['streamflow', 'gage_height', 'water_temperature'], default: 'streamflow' },
      start: optionalString,
      end: optionalString,
      limit: limit(20),
    },
  },
  search_species_occurrence: {
    pack: 'earth',
    credits: 1,
    args: {
      species: requiredString,
      country: optionalString,
      year_from: { type: 'integer' },
      year_to: { type: 'integer' },
      has_coordinates: { type: 'boolean', default: true },
      limit: limit(50),
    },
  },
  get_air_quality: {
    pack: 'earth',
    credits: 1,
    args: {
      latitude: { type: 'number', required: true },
      longitude: { type: 'number', required: true },
      radius_km: { type: 'number', default: 25 },
      pollutants: {
        type: 'array',
        itemsEnum: ['pm25', 'pm10', 'no2', 'o3', 'so2', 'co'],
        default: ['pm25', 'pm10', 'no2', 'o3', 'so2', 'co'],
      },
      start: optionalString,
      end: optionalString,
    },
  },
  lookup_astro_object: { pack: 'astro', credits: 1, args: { name: requiredString } },
  search_exoplanets: {
    pack: 'astro',
    credits: 1,
    args: {
      host_star: optionalString,
      planet_name: optionalString,
      discovery_method: optionalString,
      max_distance_pc: { type: 'number' },
      min_radius_earth: { type: 'number' },
      max_radius_earth: { type: 'number' },
      in_habitable_zone: { type: 'boolean' },
      discovered_after: { type: 'integer' },
      limit: limit(25),
    },
  },
  query_gaia: {
    pack: 'astro',
    credits: 1,
    args: {
      ra: { type: 'number', required: true },
      dec: { type: 'number', required: true },
      radius_deg: { type: 'number', required: true },
      max_g_mag: { type: 'number' },
      limit: limit(50),
    },
  },
  search_archives: {
    pack: 'humanities',
    credits: 1,
    args: {
      query: requiredString,
      type: { type: 'string', enum: ['newspaper', 'image', 'manuscript', 'map', 'any'], default: 'any' },
      date_from: { type: 'integer' },
      date_to: { type: 'integer' },
      sources: { type: 'array', itemsEnum: ['loc', 'europeana'], default: ['loc', 'europeana'] },
      limit: limit(10),
    },
  },
  lookup_integer_sequence: { pack: 'humanities', credits: 1, args: { query: requiredString, limit: limit(5) } },
};
