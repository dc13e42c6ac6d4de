/**
 * Organisms by name or NCBI taxon id: the taxon id every source takes (NCBI, UniProt, STRING,
 * Reactome) and, where Ensembl has the genome, its species name.
 */
import { ApiError } from '../errors.ts';

export interface Organism {
  taxonId: number;
  scientificName?: string;
  /** Ensembl species name (`homo_sapiens`), when Ensembl has this genome. */
  ensemblSpecies?: string;
}

const KNOWN: Array<{ taxonId: number; scientificName: string; ensemblSpecies?: string; names: string[] }> = [
  { taxonId: 9606, scientificName: 'Homo sapiens', ensemblSpecies: 'homo_sapiens', names: ['human', 'homo sapiens', 'h. sapiens', 'man'] },
  { taxonId: 10090, scientificName: 'Mus musculus', ensemblSpecies: 'mus_musculus', names: ['mouse', 'mus musculus', 'm. musculus'] },
  { taxonId: 10116, scientificName: 'Rattus norvegicus', ensemblSpecies: 'rattus_norvegicus', names: ['rat', 'rattus norvegicus', 'r. norvegicus'] },
  { taxonId: 7955, scientificName: 'Danio rerio', ensemblSpecies: 'danio_rerio', names: ['zebrafish', 'danio rerio', 'd. rerio'] },
  {
    taxonId: 7227,
    scientificName: 'Drosophila melanogaster',
    ensemblSpecies: 'drosophila_melanogaster',
    names: ['fruit fly', 'fly', 'drosophila', 'drosophila melanogaster', 'd. melanogaster'],
  },
  {
    taxonId: 6239,
    scientificName: 'Caenorhabditis elegans',
    ensemblSpecies: 'caenorhabditis_elegans',
    names: ['worm', 'nematode', 'c. elegans', 'caenorhabditis elegans'],
  },
  {
    taxonId: 559292,
    scientificName: 'Saccharomyces cerevisiae S288C',
    ensemblSpecies: 'saccharomyces_cerevisiae',
    names: ['yeast', 'budding yeast', 'saccharomyces cerevisiae', 's. cerevisiae'],
  },
  { taxonId: 9031, scientificName: 'Gallus gallus', ensemblSpecies: 'gallus_gallus', names: ['chicken', 'gallus gallus'] },
  { taxonId: 9913, scientificName: 'Bos taurus', ensemblSpecies: 'bos_taurus', names: ['cow', 'cattle', 'bovine', 'bos taurus'] },
  { taxonId: 9823, scientificName: 'Sus scrofa', ensemblSpecies: 'sus_scrofa', names: ['pig', 'sus scrofa'] },
  {
    taxonId: 9615,
    scientificName: 'Canis lupus familiaris',
    ensemblSpecies: 'canis_lupus_familiaris',
    names: ['dog', 'canis familiaris', 'canis lupus familiaris'],
  },
  {
    taxonId: 8364,
    scientificName: 'Xenopus tropicalis',
    ensemblSpecies: 'xenopus_tropicalis',
    names: ['xenopus', 'western clawed frog', 'xenopus tropicalis'],
  },
  { taxonId: 3702, scientificName: 'Arabidopsis thaliana', names: ['arabidopsis', 'thale cress', 'arabidopsis thaliana', 'a. thaliana'] },
  { taxonId: 83333, scientificName: 'Escherichia coli K-12', names: ['e. coli', 'escherichia coli', 'escherichia coli k-12'] },
];

/** `human`, `Mus musculus` or `10090`; an unknown name is a 400 naming the field. */
export function resolveOrganism(value: string | undefined): Organism {
  const text = (value ?? 'human').trim();
  if (/^\d{1,9}$/.test(text)) {
    const taxonId = Number(text);
    if (taxonId < 1) throw new ApiError('invalid_input', 'organism: a taxon id must be a positive integer');
    const known = KNOWN.find((entry) => entry.taxonId === taxonId);
    return known ? { taxonId, scientificName: known.scientificName, ensemblSpecies: known.ensemblSpecies } : { taxonId };
  }
  const name = text.toLowerCase().replace(/\s+/g, ' ').replace(/_/g, ' ');
  const known = KNOWN.find((entry) => entry.names.includes(name));
  if (!known) {
    throw new ApiError('invalid_input', `organism: "${text}" is not a known organism name; give its NCBI taxon id instead (e.g. 9606 for human)`);
  }
  return { taxonId: known.taxonId, scientificName: known.scientificName, ensemblSpecies: known.ensemblSpecies };
}
