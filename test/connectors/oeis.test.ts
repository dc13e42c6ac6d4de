import { expect } from 'chai';
import { oeisQuery, parseSearch } from '../../src/connectors/oeis.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

const parse = (text: string) => parseSearch(parseJsonKeepingBigIntegers(text));

describeRecordings('oeis', () => {
  it('reads A144640 in the legacy layout with its exact values', () => {
    const page = parse(recording('oeis', 'search-id-A144640-legacy-object-format.json'));
    expect(page.count).to.equal(1);
    expect(page.sequences).to.deep.equal([
      {
        aNumber: 'A144640',
        name: 'Row sums from A144562.',
        terms:
          '3,17,48,102,185,303,462,668,927,1245,1628,2082,2613,3227,3930,4728,5627,6633,7752,8990,10353,11847,13478,15252,17175,19253,21492,23898,26477,29235,32178,35312,38643,42177,45920,49878,54057,58463,63102,67980,73103'.split(
            ',',
          ),
        offset: 1,
        formulas: [
          'a(n) = (2*n^2 + 5*n - 1)*n/2. - _Jon E. Schoenfield_, Jun 24 2010',
          'G.f.: x*(3+5*x-2*x^2)/(1-x)^4. - _Vincenzo Librandi_, Jul 06 2012',
          'a(n) = 4*a(n-1) - 6*a(n-2) + 4*a(n-3) - a(n-4). - _Vincenzo Librandi_, Jul 06 2012',
        ],
        keywords: ['nonn', 'easy'],
        comments: ['Row 2 of the convolution array A213833. - _Clark Kimberling_, Jul 04 2012'],
        author: '_Vincenzo Librandi_, Jan 21 2009, Jun 29 2009',
        referencesCount: 2,
      },
    ]);
  });
  it('reads A200083 (tab- or space-indented) the same way', () => {
    const [sequence] = parse(recording('oeis', 'search-id-A200083-legacy-object-format.json')).sequences;
    expect([sequence!.aNumber, sequence!.terms.length, sequence!.terms.at(-1), sequence!.keywords, sequence!.referencesCount]).to.deep.equal([
      'A200083',
      47,
      '13312',
      ['nonn'],
      1,
    ]);
  });
});

describe('oeis connector', () => {
  it('reads the bare-array layout of the current server, terms kept as strings', () => {
    const page = parse(fixture('oeis', 'hand-made-bare-array-fibonacci.json'));
    expect(page.count).to.equal(undefined);
    expect(page.sequences[0]!.aNumber).to.equal('A000045');
    expect(page.sequences[0]!.terms.slice(-1)).to.deep.equal(['102334155']);
    expect(page.sequences[0]!.offset).to.equal(0);
  });
  it('reads "no match" in both layouts as no sequences', () => {
    expect(parseSearch(null).sequences).to.deep.equal([]);
    expect(parseSearch([]).sequences).to.deep.equal([]);
    expect(parseSearch({ greeting: 'Greetings', query: 'x', count: 0, start: 0, results: null }).sequences).to.deep.equal([]);
  });
  it('turns an A-number into an id: lookup, terms into a comma list, and leaves words alone', () => {
    expect(oeisQuery('a45')).to.equal('id:A000045');
    expect(oeisQuery(' A000045 ')).to.equal('id:A000045');
    expect(oeisQuery('1, 1, 2, 3, 5, 8')).to.equal('1,1,2,3,5,8');
    expect(oeisQuery('1 2 -3')).to.equal('1,2,-3');
    expect(oeisQuery('fibonacci numbers')).to.equal('fibonacci numbers');
  });
});
