import { expect } from 'chai';
import { decide, sameJournal, samePages } from '../../src/literature/match.ts';
import { parseReference, splitReferences } from '../../src/literature/references.ts';
import { report, runEvaluation } from './eval/evaluation.ts';

describe('reference parsing', () => {
  it('splits numbered lists, paragraphs, lines and BibTeX entries', () => {
    expect(splitReferences('[1] A. One, "T1," J, 2001.\n[2] B. Two, "T2,"\n    J, 2002.')).to.deep.equal(['A. One, "T1," J, 2001.', 'B. Two, "T2," J, 2002.']);
    expect(splitReferences('1. First ref.\n2. Second ref.\n3) Third ref.')).to.deep.equal(['First ref.', 'Second ref.', 'Third ref.']);
    expect(splitReferences('Smith, J. (2001). T1.\nJournal, 1, 1-2.\n\nDoe, A. (2002). T2. J, 2, 3-4.')).to.deep.equal(['Smith, J. (2001). T1. Journal, 1, 1-2.', 'Doe, A. (2002). T2. J, 2, 3-4.']);
    expect(splitReferences('Line one 2001.\nLine two 2002.')).to.deep.equal(['Line one 2001.', 'Line two 2002.']);
    expect(splitReferences('@article{a, title={X}}\n@book{b, title={Y}}')).to.deep.equal(['@article{a, title={X}}', '@book{b, title={Y}}']);
  });
  it('reads APA, Vancouver, IEEE, Harvard, Chicago and BibTeX into the same fields', () => {
    const want = { firstAuthor: 'Laemmli', year: 1970, volume: '227', pages: '680-685' };
    const pick = (text: string) => { const parsed = parseReference(text); return { firstAuthor: parsed.firstAuthor, year: parsed.year, volume: parsed.volume, pages: parsed.pages, title: parsed.title?.toLowerCase() }; };
    const title = 'cleavage of structural proteins during the assembly of the head of bacteriophage t4';
    for (const text of [
      'Laemmli, U. K. (1970). Cleavage of structural proteins during the assembly of the head of bacteriophage T4. Nature, 227(5259), 680–685.',
      'Laemmli UK. Cleavage of structural proteins during the assembly of the head of bacteriophage T4. Nature. 1970;227(5259):680-685.',
      'U. K. Laemmli, "Cleavage of structural proteins during the assembly of the head of bacteriophage T4," Nature, vol. 227, no. 5259, pp. 680–685, 1970.',
      "Laemmli, U.K. (1970) 'Cleavage of structural proteins during the assembly of the head of bacteriophage T4', Nature, 227(5259), pp. 680–685.",
      'Laemmli, U. K. 1970. "Cleavage of Structural Proteins during the Assembly of the Head of Bacteriophage T4." Nature 227 (5259): 680–685.',
      '@article{l70, author={Laemmli, U. K.}, title={Cleavage of structural proteins during the assembly of the head of bacteriophage {T4}}, journal={Nature}, year={1970}, volume={227}, pages={680--685}}',
    ]) expect(pick(text), text).to.deep.equal({ ...want, title });
    expect(parseReference('Hirsch JE. An index. PNAS. 2005;102(46):16569-72. doi:10.1073/PNAS.0507655102.').doi).to.equal('10.1073/pnas.0507655102');
  });
  it('compares journals across abbreviations and pages across short forms', () => {
    expect([sameJournal('J Sci Food Agric', 'Journal of the Science of Food and Agriculture'), sameJournal('Proc Natl Acad Sci U S A', 'Proceedings of the National Academy of Sciences'),
      sameJournal('Science', 'Nature'), sameJournal('Phys. Rev. Lett.', 'Proceedings of the National Academy of Sciences')]).to.deep.equal([true, true, false, false]);
    expect([samePages('2310-5', '2310-2315'), samePages('e30', 'e30'), samePages('5363-7', '5463-5467')]).to.deep.equal([true, true, false]);
  });
  it('never verifies a reference whose DOI resolves to another paper', () => {
    const reference = parseReference('Ioannidis, J. P. A. (2005). Why most published research findings are false. PLoS Medicine, 2(8), e124. https://doi.org/10.1371/journal.pone.0000030');
    const other = { doi: '10.1371/journal.pone.0000030', title: 'Triose Phosphate Isomerase Deficiency Is Caused by Altered Dimerization', authors: ['Markus Ralser'], year: 2006, nativeId: 'x', venue: 'PLoS ONE' };
    expect(decide(reference, [{ paper: other, source: 'crossref' }]).status).to.equal('not_found');
  });
});

describe('the verify_references evaluation (npm run eval:references)', function () {
  this.timeout(60_000);
  it('reaches at least 95% overall and never verifies a fabricated reference or a DOI of another paper', async () => {
    const result = await runEvaluation();
    console.log(report(result).split('\n').map((line) => `      ${line}`).join('\n'));
    expect(result.total).to.be.at.least(40);
    expect(result.accuracy).to.be.at.least(0.95);
    const never = result.rows.filter((row) => (row.kind === 'fabricated' || row.kind === 'other_papers_doi' || row.kind === 'wrong_doi') && row.actual === 'verified');
    expect(never).to.deep.equal([]);
  });
});
