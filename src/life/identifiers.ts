/** Recognising the identifiers a user may type. */

/** UniProtKB accession (the official pattern), optionally with an isoform suffix. */
const UNIPROT = /^(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})(?:-\d+)?$/;
const ENSEMBL_GENE = /^ENS[A-Z]*G\d{11}(?:\.\d+)?$/;
const PDB_ID = /^[0-9][A-Za-z0-9]{3}$/;

export const isUniProtAccession = (text: string): boolean => UNIPROT.test(text.trim().toUpperCase());
export const isEnsemblGeneId = (text: string): boolean => ENSEMBL_GENE.test(text.trim().toUpperCase());
export const isPdbId = (text: string): boolean => PDB_ID.test(text.trim());

/** ENSG00000157764.13 → ENSG00000157764. */
export const unversioned = (id: string): string =>
  id
    .trim()
    .toUpperCase()
    .replace(/\.\d+$/, '');

/** Something that looks like a gene symbol (BRAF, Tp53, HLA-A, C9orf72), not a phrase. */
export const looksLikeSymbol = (text: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._-]{0,29}$/.test(text.trim());
