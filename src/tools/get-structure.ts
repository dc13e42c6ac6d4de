/**
 * get_structure: experimental PDB entries (RCSB search by UniProt accession, then the Data API for
 * their details) plus the AlphaFold DB model of the accession. A PDB id is described directly and
 * brings the models of its chains' accessions; a name is first resolved to a UniProt accession.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { GetStructureArgs, GetStructureData, SourceId, ToolRecord } from '../../generated/types.ts';
import * as alphafold from '../connectors/alphafold.ts';
import * as rcsb from '../connectors/rcsb-pdb.ts';
import * as uniprot from '../connectors/uniprot.ts';
import { ApiError } from '../errors.ts';
import { isPdbId, isUniProtAccession } from '../life/identifiers.ts';
import { Join } from '../life/parts.ts';
import type { ToolContext } from './context.ts';
import { count, makeRecord } from './result.ts';

/** Predicted models asked for a PDB entry made of several proteins. */
export const MAX_MODELS_PER_ENTRY = 3;
const HUMAN = 9606;

type Data = GetStructureData;

export const getStructure: ToolHandler<GetStructureArgs, Data, ToolContext> = async (args, context) => {
  const upstream = context.upstream;
  const join = new Join((source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'));
  const attempt = <T>(source: SourceId, missing: string, run: () => Promise<T>) => join.attempt(source, missing, run);
  const id = args.id?.trim();
  if (id !== undefined && !isPdbId(id) && !isUniProtAccession(id)) {
    throw new ApiError('invalid_input', `id: "${id}" is neither a PDB id (e.g. 4HHB) nor a UniProt accession (e.g. P05067); use query for a name`);
  }

  let entries: Array<{ entry: rcsb.PdbEntry; retrievedAt: string }> = [];
  let accessions: string[] = [];
  let asked: string;
  let total: number | undefined;

  if (id && isPdbId(id)) {
    asked = id.toUpperCase();
    const answer = await attempt('rcsb-pdb', 'the experimental entry', () => rcsb.getEntries(upstream, [asked]));
    entries = (answer?.entries ?? []).map((entry) => ({ entry, retrievedAt: answer!.retrievedAt }));
    accessions = (entries[0]?.entry.uniprotAccessions ?? []).slice(0, MAX_MODELS_PER_ENTRY);
  } else {
    let accession = id?.toUpperCase();
    if (!accession) {
      const query = args.query!.trim();
      const found = await attempt(
        'uniprot',
        'the UniProt accession of the name, needed for every other part',
        async () => (await uniprot.findByText(upstream, query, HUMAN)) ?? (await uniprot.findByText(upstream, query)),
      );
      accession = found?.entry.accession;
    }
    asked = accession ?? args.query!.trim();
    if (accession) {
      accessions = [accession];
      const experimental = await attempt('rcsb-pdb', 'experimental entries', async () => {
        const hits = await rcsb.searchEntries(upstream, accession!, args.limit);
        const described = await rcsb.getEntries(upstream, hits.ids.slice(0, args.limit));
        return { ...described, total: hits.total };
      });
      entries = (experimental?.entries ?? []).map((entry) => ({ entry, retrievedAt: experimental!.retrievedAt }));
      total = experimental?.total;
    }
  }

  const models = await Promise.all(
    accessions.map((accession) => attempt('alphafold', 'the predicted model', () => alphafold.getPrediction(upstream, accession))),
  );

  const records: Array<ToolRecord<Data>> = entries.slice(0, args.limit).map(({ entry, retrievedAt }) =>
    makeRecord<Data>(upstream, 'rcsb-pdb', {
      nativeId: entry.pdbId,
      type: 'structure',
      title: entry.title ? `${entry.pdbId}: ${entry.title}` : entry.pdbId,
      url: rcsb.entryPage(entry.pdbId),
      retrievedAt,
      data: {
        kind: 'experimental',
        pdb_id: entry.pdbId,
        title: entry.title,
        method: entry.method,
        resolution_angstrom: entry.resolutionAngstrom,
        release_date: entry.releaseDate,
        organisms: entry.organisms,
        uniprot_accessions: entry.uniprotAccessions,
        mmcif_url: entry.mmcifUrl,
        pdb_url: entry.pdbUrl,
      },
    }),
  );
  let modelCount = 0;
  for (const answer of models) {
    const model = answer?.model;
    if (!model) continue;
    modelCount += 1;
    records.push(
      makeRecord<Data>(upstream, 'alphafold', {
        nativeId: model.entryId,
        type: 'structure',
        title: `${model.entryId}: predicted model of ${model.description ?? model.accession}`,
        url: alphafold.modelPage(model.accession),
        retrievedAt: answer!.retrievedAt,
        data: {
          kind: 'predicted',
          title: model.description,
          organisms: model.organism ? [model.organism] : undefined,
          uniprot_accessions: [model.accession],
          mmcif_url: model.cifUrl,
          pdb_url: model.pdbUrl,
          model_id: model.entryId,
          mean_plddt: model.meanPlddt,
          model_version: model.version,
          model_created_date: model.createdDate,
        },
      }),
    );
  }
  const experimentalCount = records.length - modelCount;
  const of = total !== undefined && total > experimentalCount ? ` (of ${total})` : '';
  const summary = `${count(experimentalCount, 'experimental structure')}${of} and ${count(modelCount, 'predicted model')} for ${asked}.`;
  return join.outcome(records, summary);
};
