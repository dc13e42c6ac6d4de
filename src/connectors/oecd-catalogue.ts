/**
 * The OECD catalogue, from the SDMX structure API of sdmx.oecd.org/public/rest. Structures are asked
 * for as SDMX-ML 2.1, the API's own default and the format its recorded answers are in:
 * - `/dataflow/all/all/latest`: every dataflow with its name (about 1,500), indexed by name and
 *   description;
 * - `/dataflow/{agency}/{id}/{version}?references=all&detail=referencepartial`: the dataflow's data
 *   structure (dimensions in key order, each with its codelist) and the codelists' labels;
 * - `/v2/availability/dataflow/{agency}/{id}/{version}/{key}` (SDMX-JSON 1.0): the codes that have
 *   data for one country (an "Actual" content constraint, one cube region of key values).
 * A series key is built from these: the named country, monthly before quarterly before annual,
 * the measure that matched, and for every other dimension its only code with data, else left open.
 * Structure requests are not data downloads (OECD's hourly limit counts downloads only). Structure
 * messages are read as they stream (./sdmx-structure-reader.ts).
 */
import type { UpstreamClient, UpstreamRequest } from '../upstream/client.ts';
import { NotStructure, readStructureParts, StructureReader, type StructureParts } from './sdmx-structure-reader.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { CatalogueIndex } from '../statistics/catalogue-index.ts';
import { catalogue } from '../statistics/catalogues.ts';
import { nextTurn } from '../clock.ts';

const SOURCE = 'oecd' as const;
/** SDMX-ML 2.1 structure messages (dataflows, data structures, codelists). */
export const STRUCTURE_XML = 'application/vnd.sdmx.structure+xml; version=2.1';
/** The availability answer, SDMX-JSON 1.0 (as recorded). */
const STRUCTURE_JSON = 'application/vnd.sdmx.structure+json; version=1.0; charset=utf-8';
/** The dataflow list and a structure with its codelists can be larger than a data answer. */
export const CATALOGUE_MAX_BYTES = 64 * 1024 * 1024;

export interface DataflowRef {
  agency: string;
  id: string;
  version: string;
  name: string;
}

export interface DataflowList {
  index: CatalogueIndex;
  flows: Map<string, DataflowRef>;
  retrievedAt: string;
}

export interface Dimension {
  id: string;
  /** Code → English label. */
  codes: Map<string, string>;
}

export interface Structure {
  /** The dataflow's English name, when the message names it (references=all does). */
  name?: string;
  /** In key order (time left out). */
  dimensions: Dimension[];
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : value && typeof value === 'object' ? [obj(value)] : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** A structure message's parts (./sdmx-structure-reader.ts), or a bad body saying what the answer is not. */
function partsOf<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof NotStructure) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE}: the structure answer is ${error.message}`);
    throw error;
  }
}

/** A structure message read as it streams, a piece at a time with other calls running between the pieces. */
async function readMessage(upstream: UpstreamClient, request: Omit<UpstreamRequest<typeof SOURCE>, 'maxBodyBytes' | 'headers' | 'kind'>) {
  const reader = new StructureReader();
  const read = await upstream.readText(
    SOURCE,
    { ...request, headers: { accept: STRUCTURE_XML }, kind: 'structure', maxBodyBytes: CATALOGUE_MAX_BYTES },
    async (piece) => {
      partsOf(() => reader.write(piece));
      await nextTurn();
    },
  );
  return { parts: partsOf(() => reader.end()), retrievedAt: read.retrievedAt };
}

export const refOf = (flow: Pick<DataflowRef, 'agency' | 'id' | 'version'>) => `${flow.agency},${flow.id},${flow.version}`;

/** A dataflow message (`/dataflow/all/all/latest`) → the dataflows (those without an id, agency or version are skipped). */
export function readDataflows(body: string): Array<DataflowRef & { description?: string }> {
  return dataflowsOf(partsOf(() => readStructureParts(body)));
}

function dataflowsOf(parts: StructureParts): Array<DataflowRef & { description?: string }> {
  return parts.dataflows.flatMap(({ id, agency, version, name, description }) =>
    // The whole description is indexed (and then let go): KEI's names "interest rates" only after its first 400 characters.
    id && agency && version ? [{ agency, id, version, name: name ?? id, description }] : [],
  );
}

/** A structure message with references=all → the dimensions in key order with their codes' English labels. */
export function readStructure(body: string): Structure {
  return structureFrom(partsOf(() => readStructureParts(body)));
}

function structureFrom(parts: StructureParts): Structure {
  const dimensions = parts.dimensions
    .map((dimension, index) => ({ dimension, position: Number(dimension.position ?? index + 1) }))
    .sort((a, b) => a.position - b.position)
    .flatMap(({ dimension }) =>
      dimension.id ? [{ id: dimension.id, codes: parts.codelists.get(dimension.codelist ?? '') ?? new Map<string, string>() }] : [],
    );
  if (parts.dataStructures === 0) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE}: the structure message holds no data structure`);
  if (dimensions.length === 0) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE}: the data structure has no dimensions`);
  const name = parts.dataflows[0]?.name;
  return name ? { name, dimensions } : { dimensions };
}

/** An availability (content constraint) message → the codes that have data, per dimension. */
export function readAvailability(body: unknown): Map<string, string[]> {
  const constraint = list(obj(obj(body).data).contentConstraints)[0];
  const region = list(constraint?.cubeRegions).find((cube) => cube.isIncluded !== false);
  return new Map(
    list(region?.keyValues).flatMap((keyValue) =>
      text(keyValue.id) && Array.isArray(keyValue.values)
        ? [[text(keyValue.id)!, keyValue.values.filter((code): code is string => typeof code === 'string')] as const]
        : [],
    ),
  );
}

const FREQUENCY_ORDER = ['M', 'Q', 'A'];

/**
 * The key's codes for one measure: the country, a frequency, the measure, and each other dimension's
 * code when only one has data; a dimension with several is left open (availability is per country,
 * not per measure, so a total such as `_T` may have no data for this measure), and the data answer's
 * totals are picked then (../statistics/sdmx.ts).
 */
export function keyCodes(
  structure: Structure,
  available: Map<string, string[]>,
  country: string,
  measure: { dimension: string; code: string },
): Record<string, string> {
  const codes: Record<string, string> = {};
  for (const { id } of structure.dimensions) {
    const here = available.get(id) ?? [];
    if (id === 'REF_AREA') codes[id] = country;
    else if (id === measure.dimension) codes[id] = measure.code;
    else if (id === 'FREQ') {
      const frequency = FREQUENCY_ORDER.find((code) => here.includes(code)) ?? (here.length === 1 ? here[0] : undefined);
      if (frequency) codes[id] = frequency;
    } else if (here.length === 1) codes[id] = here[0]!;
  }
  return codes;
}

/** The dimension whose codes name what is measured: MEASURE, else the first coded one other than the area and frequency. */
export function measureDimension(structure: Structure): Dimension | undefined {
  return (
    structure.dimensions.find((dimension) => dimension.id === 'MEASURE') ??
    structure.dimensions.find((dimension) => !['REF_AREA', 'FREQ'].includes(dimension.id) && dimension.codes.size > 0)
  );
}

/**
 * The dataflows' index: each by its name, then its description and the words `wordsOf` gives it
 * (the titles of much-used series it holds: a ranking aid, found only when the list names the
 * dataflow). Kept in a database file from the first entry, as a large catalogue is: with whole
 * descriptions (a million characters for 1,414 dataflows) an index in the heap held 9 MiB more
 * (docs/benchmarks.md, run 40).
 */
export async function dataflowIndex(
  flows: ReadonlyArray<DataflowRef & { description?: string }>,
  wordsOf: ReadonlyMap<string, string> = new Map(),
): Promise<CatalogueIndex> {
  const index = new CatalogueIndex(new Map(), { storedFrom: 0 });
  await index.addAll(
    flows.map((flow) => ({ id: refOf(flow), title: flow.name, text: [flow.description, wordsOf.get(flow.id)].filter(Boolean).join(' ') || undefined })),
  );
  return index;
}

/** The dataflow list, indexed (`wordsOf`: words added to a dataflow by its id, see dataflowIndex). */
export async function readDataflowList(upstream: UpstreamClient, wordsOf?: ReadonlyMap<string, string>): Promise<DataflowList> {
  const message = await readMessage(upstream, { path: '/dataflow/all/all/latest' });
  const found = dataflowsOf(message.parts);
  if (found.length === 0) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE}: the dataflow list named no dataflow`);
  return {
    index: await dataflowIndex(found, wordsOf),
    flows: new Map(found.map((flow) => [refOf(flow), { agency: flow.agency, id: flow.id, version: flow.version, name: flow.name }])),
    retrievedAt: message.retrievedAt,
  };
}

/** The dataflow list, read once and kept (`wordsOf` is the same at every call). */
export function dataflowList(upstream: UpstreamClient, wordsOf?: ReadonlyMap<string, string>): Promise<DataflowList> {
  return catalogue(upstream, `${SOURCE}:dataflows`, (shared) => readDataflowList(shared, wordsOf));
}

/**
 * A dataflow's structure with its codelists, read once and kept. `detail=referencepartial` cuts
 * each codelist to the codes the dataflow's constraints allow: the financial market dataflow's
 * answer is 416 KB so, 1.86 MB whole (test/recordings/oecd/README.md), and every code its data can
 * carry is still labelled.
 */
export function structureOf(upstream: UpstreamClient, flow: Pick<DataflowRef, 'agency' | 'id' | 'version'>): Promise<Structure> {
  return catalogue(upstream, `${SOURCE}:structure:${refOf(flow)}`, async (shared) => {
    const message = await readMessage(shared, {
      path: `/dataflow/${flow.agency}/${flow.id}/${flow.version}`,
      searchParams: { references: 'all', detail: 'referencepartial' },
    });
    return structureFrom(message.parts);
  });
}

/** The codes with data for one country (REF_AREA) in a dataflow. */
export async function availabilityFor(
  upstream: UpstreamClient,
  flow: Pick<DataflowRef, 'agency' | 'id' | 'version'>,
  structure: Structure,
  country: string,
): Promise<Map<string, string[]>> {
  const key = structure.dimensions.map((dimension) => (dimension.id === 'REF_AREA' ? country : '*')).join('.');
  const answer = await upstream.getJson(SOURCE, {
    path: `/v2/availability/dataflow/${flow.agency}/${flow.id}/${flow.version}/${key}`,
    headers: { accept: STRUCTURE_JSON },
    kind: 'structure',
  });
  return readAvailability(answer.body);
}
