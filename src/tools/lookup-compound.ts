/**
 * lookup_compound: the query resolved to PubChem CIDs (the first, PubChem's best match, is taken and
 * the summary says so when there were several), its computed properties and synonyms, joined with
 * ChEBI's definition and roles when the compound is in ChEBI (found through the ChEBI id PubChem lists
 * among the synonyms, else by InChIKey). ChEBI failing leaves those two fields out: partial, not an error.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { LookupCompoundArgs, LookupCompoundData } from '../../generated/types.ts';
import * as chebi from '../connectors/chebi.ts';
import * as pubchem from '../connectors/pubchem.ts';
import { Join } from '../life/parts.ts';
import type { ToolContext } from './context.ts';
import { makeRecord } from './result.ts';

type Data = LookupCompoundData;
/** CIDs named in the summary of an ambiguous query. */
const SHOWN_CIDS = 5;

export const lookupCompound: ToolHandler<LookupCompoundArgs, Data, ToolContext> = async (args, context) => {
  const upstream = context.upstream;
  const query = args.query.trim();
  const join = new Join((source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'));

  // A CID is taken as it is: PubChem is asked nothing here, so it has not answered yet (a source
  // counts as answering only once it was asked and answered).
  const givenCid = pubchem.cidOf(query);
  const resolved =
    givenCid !== undefined
      ? { kind: 'cid' as const, cids: [givenCid] }
      : await join.attempt('pubchem', 'the compound', () => pubchem.resolveCids(upstream, query));
  const cid = resolved?.cids[0];
  if (cid === undefined) return join.outcome<Data>([], `No PubChem compound matches "${query}".`);

  const [facts, allSynonyms] = await Promise.all([
    join.attempt('pubchem', 'computed properties', () => pubchem.getProperties(upstream, cid)),
    join.attempt('pubchem', 'synonyms', () => pubchem.getSynonyms(upstream, cid)),
  ]);
  const properties = facts?.properties;
  if (givenCid !== undefined && facts && !properties) return join.outcome<Data>([], `No PubChem compound has CID ${givenCid}.`);
  // ChEBI is asked only when there is something to ask it by: a ChEBI id among the synonyms, or the InChIKey.
  const listed = pubchem.chebiIdIn(allSynonyms ?? []);
  const inchikey = properties?.inchikey;
  const entry =
    listed || inchikey
      ? await join.attempt('chebi', 'ChEBI definition and roles', async () => {
          const id = listed ?? (await chebi.searchEntities(upstream, inchikey!))?.chebiId;
          return id ? chebi.getCompound(upstream, id) : undefined;
        })
      : undefined;

  const name = properties?.title ?? (resolved!.kind === 'name' ? query : undefined);
  const data: Data = {
    pubchem_cid: cid,
    name,
    iupac_name: properties?.iupacName,
    formula: properties?.formula,
    molecular_weight: properties?.molecularWeight,
    smiles: properties?.smiles,
    connectivity_smiles: properties?.connectivitySmiles,
    inchi: properties?.inchi,
    inchikey: properties?.inchikey,
    xlogp: properties?.xlogp,
    h_bond_donor_count: properties?.hBondDonorCount,
    h_bond_acceptor_count: properties?.hBondAcceptorCount,
    tpsa: properties?.tpsa,
    synonyms: allSynonyms && allSynonyms.length > 0 ? allSynonyms.slice(0, pubchem.MAX_SYNONYMS) : undefined,
    image_url: pubchem.imageUrl(cid),
    chebi_id: entry?.chebiId,
    definition: entry?.definition,
    roles: entry?.roles,
  };
  const record = makeRecord<Data>(upstream, 'pubchem', {
    nativeId: String(cid),
    type: 'compound',
    title: name ?? `CID ${cid}`,
    url: pubchem.compoundUrl(cid),
    retrievedAt: facts?.retrievedAt ?? new Date().toISOString(),
    data,
  });
  return join.outcome([record], summaryOf(query, resolved!.cids, data));
};

function summaryOf(query: string, cids: number[], data: Data): string {
  const facts = [data.formula, data.molecular_weight !== undefined ? `${data.molecular_weight} g/mol` : undefined, data.chebi_id].filter(Boolean).join(', ');
  const found = `${data.name ?? query}: PubChem CID ${data.pubchem_cid}${facts ? ` (${facts})` : ''}.`;
  if (cids.length < 2) return found;
  const shown = cids.slice(0, SHOWN_CIDS).join(', ') + (cids.length > SHOWN_CIDS ? ', …' : '');
  return `${found} "${query}" matches ${cids.length} PubChem compounds (CIDs ${shown}); CID ${data.pubchem_cid} was chosen because PubChem lists it first, as its best match.`;
}
