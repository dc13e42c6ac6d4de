import { expect } from 'chai';
import { parseFeed } from '../../src/connectors/arxiv.ts';
import { parseEfetch } from '../../src/connectors/pubmed.ts';
import { parseXml, textOf } from '../../src/literature/xml.ts';

/** A "billion laughs" document: ten levels of entities that each expand tenfold. */
const laughs = `<?xml version="1.0"?>
<!DOCTYPE feed [
  <!ENTITY lol "lol">
  ${Array.from({ length: 9 }, (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level === 0 ? '' : level};`.repeat(10)}">`).join('\n  ')}
]>
<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/2104.12255v1</id><title>&lol9;</title><summary>&lol; &amp; 1 &lt; 2</summary></entry></feed>`;

describe('the literature XML parser', () => {
  it('refuses to expand entities: a billion-laughs document stays small', () => {
    const started = process.memoryUsage().heapUsed;
    const [paper] = parseFeed(laughs).papers;
    expect(paper!.title).to.equal('&lol9;');
    expect(paper!.abstract).to.equal('&lol; & 1 < 2');
    expect(process.memoryUsage().heapUsed - started).to.be.below(50_000_000);
  });
  it('refuses a document with an external entity as a clean source failure', () => {
    const xxe = '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><feed><entry><title>&xxe;</title></entry></feed>';
    expect(() => parseFeed(xxe)).to.throw(/^arxiv answered with XML that could not be read safely/);
  });
  it('also leaves entities of a PubMed document unexpanded', () => {
    const xml = laughs.replace(
      /<feed[\s\S]*$/,
      '<PubmedArticleSet><PubmedArticle><MedlineCitation><PMID>1</PMID><Article><ArticleTitle>&lol9;</ArticleTitle></Article></MedlineCitation></PubmedArticle></PubmedArticleSet>',
    );
    expect(parseEfetch(xml)[0]!.title).to.equal('&lol9;');
  });
  it('decodes the predefined entities and character references once', () => {
    expect(textOf(parseXml('<a>&amp;lt; &#955; &#x3bb; &quot;x&quot;</a>').a)).to.equal('&lt; λ λ "x"');
  });
});
