import { expect } from 'chai';
import { extractDois, normalizeArxivId, normalizeDoi, parsePaperId } from '../../src/literature/identifiers.ts';

describe('literature identifiers', () => {
  it('reads every identifier form of get_paper', () => {
    expect(
      [
        '10.1371/journal.pone.0000030',
        'https://doi.org/10.1371/JOURNAL.PONE.0000030',
        'doi:10.1038/35002501',
        'http://dx.doi.org/10.1038/35002501',
        'pmid:17183658',
        'PMID: 17183658',
        'PMC5122160',
        'pmc5122160',
        'arxiv:2104.12255v1',
        '2104.12255',
        'hep-th/9901001',
        'arXiv:astro-ph/0601001v1',
        'W1982728624',
        'https://openalex.org/W1982728624',
      ].map(parsePaperId),
    ).to.deep.equal([
      { kind: 'doi', value: '10.1371/journal.pone.0000030' },
      { kind: 'doi', value: '10.1371/journal.pone.0000030' },
      { kind: 'doi', value: '10.1038/35002501' },
      { kind: 'doi', value: '10.1038/35002501' },
      { kind: 'pmid', value: '17183658' },
      { kind: 'pmid', value: '17183658' },
      { kind: 'pmcid', value: 'PMC5122160' },
      { kind: 'pmcid', value: 'PMC5122160' },
      { kind: 'arxiv', value: '2104.12255v1' },
      { kind: 'arxiv', value: '2104.12255' },
      { kind: 'arxiv', value: 'hep-th/9901001' },
      { kind: 'arxiv', value: 'astro-ph/0601001v1' },
      { kind: 'openalex', value: 'W1982728624' },
      { kind: 'openalex', value: 'W1982728624' },
    ]);
  });
  it('recognises no form in free text, a bare number or a broken DOI', () => {
    expect(['hello world', '12345', '10.12/x', 'doi:', 'pmid:abc', 'W12x'].map(parsePaperId)).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
  it('normalises DOIs: resolver prefix, case, URL escapes and trailing punctuation', () => {
    expect(normalizeDoi('https://doi.org/10.1016/S0140-6736%2824%2902600-X.')).to.equal('10.1016/s0140-6736(24)02600-x');
    expect(extractDois('See doi:10.1038/35002501, and https://doi.org/10.1371/journal.pone.0000030. Again 10.1038/35002501')).to.deep.equal([
      '10.1038/35002501',
      '10.1371/journal.pone.0000030',
    ]);
    expect([normalizeArxivId('https://arxiv.org/abs/2304.05376v2'), normalizeArxivId('math.GT/0309136'), normalizeArxivId('1234')]).to.deep.equal([
      '2304.05376v2',
      'math.GT/0309136',
      undefined,
    ]);
  });
});
