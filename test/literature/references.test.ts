import { expect } from 'chai';
import { parseWork } from '../../src/connectors/crossref.ts';
import { extractDois } from '../../src/literature/identifiers.ts';
import { decide, sameJournal, samePages, titleSimilarity } from '../../src/literature/match.ts';
import type { Paper } from '../../src/literature/paper.ts';
import { fromLatex, parseReference, splitReferences } from '../../src/literature/references.ts';
import { isRetracted } from '../../src/tools/verify-references.ts';
import { report, runEvaluation } from './eval/evaluation.ts';

/** The parsed fields of a reference, without the raw text. */
function fields(text: string): Record<string, unknown> {
  const { raw: _raw, ...parsed } = parseReference(text);
  return parsed;
}

describe('reference parsing', () => {
  it('splits numbered lists, paragraphs, lines and BibTeX entries', () => {
    expect(splitReferences('[1] A. One, "T1," J, 2001.\n[2] B. Two, "T2,"\n    J, 2002.')).to.deep.equal(['A. One, "T1," J, 2001.', 'B. Two, "T2," J, 2002.']);
    expect(splitReferences('1. First ref.\n2. Second ref.\n3) Third ref.')).to.deep.equal(['First ref.', 'Second ref.', 'Third ref.']);
    expect(splitReferences('Smith, J. (2001). T1.\nJournal, 1, 1-2.\n\nDoe, A. (2002). T2. J, 2, 3-4.')).to.deep.equal([
      'Smith, J. (2001). T1. Journal, 1, 1-2.',
      'Doe, A. (2002). T2. J, 2, 3-4.',
    ]);
    expect(splitReferences('Line one 2001.\nLine two 2002.')).to.deep.equal(['Line one 2001.', 'Line two 2002.']);
    expect(splitReferences('@article{a, title={X}}\n@book{b, title={Y}}')).to.deep.equal(['@article{a, title={X}}', '@book{b, title={Y}}']);
  });

  it('reads APA, Vancouver, IEEE, Harvard, Chicago and BibTeX into the same fields', () => {
    const want = { firstAuthor: 'Laemmli', year: 1970, volume: '227', pages: '680-685' };
    const pick = (text: string) => {
      const parsed = parseReference(text);
      return { firstAuthor: parsed.firstAuthor, year: parsed.year, volume: parsed.volume, pages: parsed.pages, title: parsed.title?.toLowerCase() };
    };
    const title = 'cleavage of structural proteins during the assembly of the head of bacteriophage t4';
    for (const text of [
      'Laemmli, U. K. (1970). Cleavage of structural proteins during the assembly of the head of bacteriophage T4. Nature, 227(5259), 680–685.',
      'Laemmli UK. Cleavage of structural proteins during the assembly of the head of bacteriophage T4. Nature. 1970;227(5259):680-685.',
      'U. K. Laemmli, "Cleavage of structural proteins during the assembly of the head of bacteriophage T4," Nature, vol. 227, no. 5259, pp. 680–685, 1970.',
      "Laemmli, U.K. (1970) 'Cleavage of structural proteins during the assembly of the head of bacteriophage T4', Nature, 227(5259), pp. 680–685.",
      'Laemmli, U. K. 1970. "Cleavage of Structural Proteins during the Assembly of the Head of Bacteriophage T4." Nature 227 (5259): 680–685.',
      '@article{l70, author={Laemmli, U. K.}, title={Cleavage of structural proteins during the assembly of the head of bacteriophage {T4}}, journal={Nature}, year={1970}, volume={227}, pages={680--685}}',
    ])
      expect(pick(text), text).to.deep.equal({ ...want, title });
    expect(parseReference('Hirsch JE. An index. PNAS. 2005;102(46):16569-72. doi:10.1073/PNAS.0507655102.').doi).to.equal('10.1073/pnas.0507655102');
  });

  it('takes the year after IEEE page ranges and article numbers, not the first page', () => {
    expect(fields('A. Author, "Some title here," IEEE Trans. Pattern Anal. Mach. Intell., vol. 29, no. 11, pp. 1898–1909, 2007.')).to.deep.equal({
      authors: ['A. Author'],
      firstAuthor: 'Author',
      title: 'Some title here',
      year: 2007,
      journal: 'IEEE Trans. Pattern Anal. Mach. Intell',
      volume: '29',
      issue: '11',
      pages: '1898-1909',
    });
    expect(fields('B. Author, "Another title here," Sci. Rep., vol. 10, Art. no. 1820, 2020.')).to.deep.equal({
      authors: ['B. Author'],
      firstAuthor: 'Author',
      title: 'Another title here',
      year: 2020,
      journal: 'Sci. Rep',
      volume: '10',
      pages: '1820',
    });
    // A proceedings year before its pages is no volume.
    expect(
      fields('J. R. Quinlan, “Learning with continuous classes,” in 5th Australian Joint Conference on Artificial Intelligence, 1992, pp. 343–348.'),
    ).to.deep.equal({
      authors: ['J. R. Quinlan'],
      firstAuthor: 'Quinlan',
      title: 'Learning with continuous classes',
      year: 1992,
      journal: '5th Australian Joint Conference on Artificial Intelligence',
      pages: '343-348',
    });
  });

  it("keeps straight apostrophes in names and titles (O'Regan, O'Kane, Platt's)", () => {
    expect(
      fields("O'Regan, J. K., & Noë, A. (2001). A sensorimotor account of vision and visual consciousness. Behavioral and Brain Sciences, 24(5), 939–973."),
    ).to.deep.equal({
      authors: ["O'Regan, J. K.", 'Noë, A'],
      firstAuthor: "O'Regan",
      title: 'A sensorimotor account of vision and visual consciousness',
      year: 2001,
      journal: 'Behavioral and Brain Sciences',
      volume: '24',
      issue: '5',
      pages: '939-973',
    });
    expect(fields("O'Kane, D. and Platt, J. (2019) 'Improvements to Platt's SMO algorithm', Neural Computation, 13(3), pp. 637-649.")).to.deep.equal({
      authors: ["O'Kane, D.", 'Platt, J'],
      firstAuthor: "O'Kane",
      title: "Improvements to Platt's SMO algorithm",
      year: 2019,
      journal: 'Neural Computation',
      volume: '13',
      issue: '3',
      pages: '637-649',
    });
    expect(parseReference("O'Regan JK, Noë A. A sensorimotor account of vision and visual consciousness. Behav Brain Sci. 2001;24(5):939-73.")).to.include({
      firstAuthor: "O'Regan",
      journal: 'Behav Brain Sci',
      pages: '939-73',
    });
  });

  it('keeps name particles (van der, de, La) in the first author', () => {
    expect(parseReference('van der Maaten L, Hinton G. Visualizing data using t-SNE. J Mach Learn Res. 2008;9(86):2579-605.')).to.include({
      firstAuthor: 'van der Maaten',
      title: 'Visualizing data using t-SNE',
      year: 2008,
      volume: '9',
      issue: '86',
      pages: '2579-605',
    });
    expect(
      parseReference('L. van der Maaten and G. Hinton, “Visualizing data using t-SNE,” J. Mach. Learn. Res., vol. 9, no. 86, pp. 2579–2605, 2008.').firstAuthor,
    ).to.equal('van der Maaten');
    expect(
      parseReference(
        'de Myttenaere, A., Golden, B., Le Grand, B., & Rossi, F. (2016). Mean absolute percentage error for regression models. Neurocomputing, 192, 38–48.',
      ),
    ).to.include({ firstAuthor: 'de Myttenaere', volume: '192', pages: '38-48' });
    expect(parseReference('La Manno, G., Soldatov, R., & Zeisel, A. (2018). RNA velocity of single cells. Nature, 560(7719), 494–498.').firstAuthor).to.equal(
      'La Manno',
    );
  });

  it('reads LaTeX accents and "and others" in BibTeX', () => {
    expect(
      fields(
        "@article{k, author = {M{\\\"u}ller, Samuel and Est{\\'e}vez-P{\\'e}rez, Graciela and Kvamme, H{\\aa}vard and Borgan, {\\O}rnulf and others}, title = {{A} title with {LaTeX}}, journal = {J. Stat. Softw.}, year = {2012}, volume = {50}, pages = {1--21}}",
      ),
    ).to.deep.equal({
      authors: ['Müller, Samuel', 'Estévez-Pérez, Graciela', 'Kvamme, Håvard', 'Borgan, Ørnulf'],
      firstAuthor: 'Müller',
      title: 'A title with LaTeX',
      year: 2012,
      journal: 'J. Stat. Softw',
      volume: '50',
      pages: '1-21',
    });
    expect(['{\\"o}', "\\'{e}", '\\v{c}', '{\\ss}', '{\\l}', 'T{\\"u}rei \\& Korcsm{\\\'a}ros'].map(fromLatex)).to.deep.equal([
      'ö',
      'é',
      'č',
      'ß',
      'ł',
      'Türei & Korcsmáros',
    ]);
  });

  it('drops "et al." from Vancouver author lists and reads article numbers and e-pages', () => {
    expect(
      fields(
        'Schiebinger G, Shu J, Tabaka M, Cleary B, Subramanian V, Solomon A, et al. Optimal-transport analysis of single-cell gene expression identifies developmental trajectories in reprogramming. Cell. 2019;176(4):928-943.e22.',
      ),
    ).to.deep.equal({
      authors: ['Schiebinger G', 'Shu J', 'Tabaka M', 'Cleary B', 'Subramanian V', 'Solomon A'],
      firstAuthor: 'Schiebinger',
      title: 'Optimal-transport analysis of single-cell gene expression identifies developmental trajectories in reprogramming',
      year: 2019,
      journal: 'Cell',
      volume: '176',
      issue: '4',
      pages: '928-943.e22',
    });
    expect(
      parseReference(
        'Wolf, F. A., Angerer, P., & Theis, F. J. (2018). SCANPY: large-scale single-cell gene expression data analysis. Genome Biology, 19(1), 15.',
      ),
    ).to.include({ volume: '19', issue: '1', pages: '15' });
    expect(
      parseReference('Jacomy M, Venturini T, Heymann S, Bastian M. ForceAtlas2, a continuous graph layout algorithm. PLoS One. 2014;9(6):e98679.'),
    ).to.include({ pages: 'e98679', journal: 'PLoS One' });
    expect([
      samePages('928-943', '928-943.e22'),
      samePages('928-43.e22', '928-943.e22'),
      samePages('928-943.e21', '928-943.e22'),
      samePages('2310-5', '2310-2315'),
      samePages('5363-7', '5463-5467'),
    ]).to.deep.equal([true, true, false, true, false]);
  });

  it('reads Google Scholar MLA and Chicago numbers, LaTeX quotes, and titles with a question inside', () => {
    expect(fields('Watts, Duncan J., and Steven H. Strogatz. "Collective dynamics of ‘small-world’ networks." nature 393.6684 (1998): 440-442.')).to.deep.equal(
      {
        authors: ['Watts, Duncan J.', 'Steven H. Strogatz'],
        firstAuthor: 'Watts',
        title: 'Collective dynamics of ‘small-world’ networks',
        year: 1998,
        journal: 'nature',
        volume: '393',
        issue: '6684',
        pages: '440-442',
      },
    );
    expect(
      parseReference(
        'de la Monte, Suzanne M. "Quantitation of cerebral atrophy in preclinical and end-stage alzheimer\'s disease." Annals of neurology 25, no. 5 (1989): 450-459.',
      ),
    ).to.include({ firstAuthor: 'de la Monte', journal: 'Annals of neurology', volume: '25', issue: '5', pages: '450-459', year: 1989 });
    expect(
      fields("M. Safari and C. Delacourt ``Aging of a commercial graphite/LiFePO4 cell'' J. Electroch. Soc. Vol. 158, Issue 10, pp. A1123-A1135. 2011."),
    ).to.deep.equal({
      authors: ['M. Safari', 'C. Delacourt'],
      firstAuthor: 'Safari',
      title: 'Aging of a commercial graphite/LiFePO4 cell',
      year: 2011,
      journal: 'J. Electroch. Soc',
      volume: '158',
      issue: '10',
      pages: 'A1123-A1135',
    });
    expect(
      parseReference(
        'Rowcliffe, J.M., de Merode, E. and Cowlishaw, G. 2004. Do wildlife laws work? Species protection and the application of a prey choice model to poaching decisions. Proceedings of the Royal Society B: Biological Sciences 271: 2631-6.',
      ),
    ).to.include({
      firstAuthor: 'Rowcliffe',
      title: 'Do wildlife laws work? Species protection and the application of a prey choice model to poaching decisions',
      journal: 'Proceedings of the Royal Society B: Biological Sciences',
      volume: '271',
      pages: '2631-6',
      year: 2004,
    });
  });

  it('reads the ACS style (authors "Family, I."; venue, year, volume, pages after the title)', () => {
    expect(fields('Jones, A. B.; Smith, C. Synthesis of a new catalyst. J. Am. Chem. Soc. 2019, 141, 1234-1240.')).to.deep.equal({
      authors: ['Jones, A. B.', 'Smith, C.'],
      firstAuthor: 'Jones',
      title: 'Synthesis of a new catalyst',
      year: 2019,
      journal: 'J. Am. Chem. Soc',
      volume: '141',
      pages: '1234-1240',
    });
  });

  it('keeps old Wiley DOIs whole, with their <, > and ;', () => {
    expect(extractDois('Stat Med. 2000;19(15):1997-2014. doi:10.1002/1097-0258(20000815)19:15<1997::AID-SIM511>3.0.CO;2-C.')).to.deep.equal([
      '10.1002/1097-0258(20000815)19:15<1997::aid-sim511>3.0.co;2-c',
    ]);
    expect(
      parseReference(
        "Brier, G.W. (1950) 'Verification of forecasts expressed in terms of probability', Monthly Weather Review, 78(1), pp. 1-3. doi:10.1175/1520-0493(1950)078<0001:vofeit>2.0.co;2.",
      ).doi,
    ).to.equal('10.1175/1520-0493(1950)078<0001:vofeit>2.0.co;2');
  });

  it('compares journals across abbreviations', () => {
    expect([
      sameJournal('J Sci Food Agric', 'Journal of the Science of Food and Agriculture'),
      sameJournal('Proc Natl Acad Sci U S A', 'Proceedings of the National Academy of Sciences'),
      sameJournal('J. Mach. Learn. Res.', 'Journal of Machine Learning Research'),
      sameJournal('Comput Stat Data Anal', 'Computational Statistics & Data Analysis'),
      sameJournal('Nat Methods', 'Nature Methods'),
      sameJournal('Science', 'Nature'),
      sameJournal('Phys. Rev. Lett.', 'Proceedings of the National Academy of Sciences'),
    ]).to.deep.equal([true, true, true, true, true, false, false]);
  });
});

describe('reference matching and the decision rule', () => {
  const paper = (fieldsOf: Partial<Paper>): Paper => ({ nativeId: 'x', authors: [], ...fieldsOf });
  const tsne = paper({
    doi: '10.5555/tsne',
    title: 'Visualizing Data using t-SNE',
    authors: ['Laurens van der Maaten', 'Geoffrey Hinton'],
    year: 2008,
    venue: 'Journal of Machine Learning Research',
    volume: '9',
    issue: '86',
    pages: '2579-2605',
  });
  const verdict = (text: string, candidates: Paper[]) =>
    decide(
      parseReference(text),
      candidates.map((candidate) => ({ paper: candidate, source: 'crossref' as const })),
    );

  it('verifies a correct reference and names a wrong volume', () => {
    expect(verdict('van der Maaten L, Hinton G. Visualizing data using t-SNE. J Mach Learn Res. 2008;9(86):2579-605.', [tsne]).status).to.equal('verified');
    const wrong = verdict('van der Maaten L, Hinton G. Visualizing data using t-SNE. J Mach Learn Res. 2008;12(86):2579-605.', [tsne]);
    expect([wrong.status, wrong.differences]).to.deep.equal(['corrected', [{ field: 'volume', cited: '12', actual: '9' }]]);
  });

  it('accepts the print year of a paper the index dates by its online year', () => {
    const online = decide(parseReference('van der Maaten L, Hinton G. Visualizing data using t-SNE. J Mach Learn Res. 2009;9(86):2579-605.'), [
      { paper: tsne, source: 'crossref', altYears: [2009] },
    ]);
    const wrong = decide(parseReference('van der Maaten L, Hinton G. Visualizing data using t-SNE. J Mach Learn Res. 2011;9(86):2579-605.'), [
      { paper: tsne, source: 'crossref', altYears: [2009] },
    ]);
    expect([online.status, wrong.status, wrong.differences]).to.deep.equal(['verified', 'corrected', [{ field: 'year', cited: '2011', actual: '2008' }]]);
  });

  it('says not_found for a title sharing half its words with a real paper, with other authors and year', () => {
    expect(
      verdict('Okonkwo C, Varga E. Visualizing data using contrastive federated graphs for urban air quality. J Mach Learn Res. 2021;40(2):100-12.', [tsne]),
    ).to.deep.equal({ status: 'not_found', best: undefined, differences: [] });
  });

  it('says uncertain when a near title has the same first author and year', () => {
    expect(verdict('van der Maaten L, Hinton G. Visualizing high-dimensional data using t-SNE. J Mach Learn Res. 2008;9:2579-605.', [tsne]).status).to.equal(
      'uncertain',
    );
  });

  it("matches a title carrying the index's retraction prefix, and flags it", () => {
    const wakefield = paper({
      doi: '10.1016/s0140-6736(97)11096-0',
      title: 'RETRACTED: Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children',
      authors: ['A.J. Wakefield'],
      year: 1998,
      venue: 'The Lancet',
      volume: '351',
      issue: '9103',
      pages: '637-641',
    });
    const found = verdict(
      'Wakefield AJ, Murch SH, Anthony A. Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children. Lancet. 1998;351(9103):637-41.',
      [wakefield],
    );
    expect([found.status, found.best?.paper.doi, isRetracted(found.best!.paper)]).to.deep.equal(['verified', '10.1016/s0140-6736(97)11096-0', true]);
    expect([
      titleSimilarity(
        'RETRACTED ARTICLE: Stimulus-triggered fate conversion of somatic cells into pluripotency',
        'Stimulus-triggered fate conversion of somatic cells into pluripotency',
      ),
      isRetracted(paper({ title: 'Retraction and reproducibility' })),
    ]).to.deep.equal([1, false]);
  });

  it('never verifies a reference whose DOI resolves to another paper', () => {
    const reference = parseReference(
      'Ioannidis, J. P. A. (2005). Why most published research findings are false. PLoS Medicine, 2(8), e124. https://doi.org/10.1371/journal.pone.0000030',
    );
    const other = paper({
      doi: '10.1371/journal.pone.0000030',
      title: 'Triose Phosphate Isomerase Deficiency Is Caused by Altered Dimerization',
      authors: ['Markus Ralser'],
      year: 2006,
      venue: 'PLoS ONE',
    });
    expect(decide(reference, [{ paper: other, source: 'crossref' }]).status).to.equal('not_found');
  });

  it("reads Crossref's article-number as the page, and a notice's update-to as a notice", () => {
    const work = parseWork({ DOI: '10.1186/s13059-017-1382-0', title: ['SCANPY'], 'article-number': '15', volume: '19' });
    const notice = parseWork({
      DOI: '10.1038/nature13598',
      title: ['Retraction Note'],
      'update-to': [{ DOI: '10.1038/nature12968', type: 'retraction', label: 'Retraction' }],
    });
    expect([work?.pages, work?.isUpdateNotice, notice?.isUpdateNotice]).to.deep.equal(['15', undefined, true]);
  });
});

describe('the verify_references evaluation (npm run eval:references)', function () {
  this.timeout(120_000);
  it('holds the acceptance figures on the labelled set of real papers', async () => {
    const result = await runEvaluation();
    console.log(
      report(result)
        .split('\n')
        .map((line) => `      ${line}`)
        .join('\n'),
    );
    expect(result.overall.total).to.be.at.least(200);
    expect(result.overall.correct / result.overall.total).to.be.at.least(0.97);
    expect([result.fabricatedVerified, result.borrowedDoiVerified]).to.deep.equal([0, 0]);
    expect(result.retractedFlagged.correct).to.equal(result.retractedFlagged.total);
    expect(result.fieldNamed.correct / result.fieldNamed.total).to.be.at.least(0.97);
  });
});
