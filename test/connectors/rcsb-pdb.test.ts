import { expect } from 'chai';
import { accessionQuery, parseEntry, parseGraphqlEntries, parseSearch, searchBaseUrl } from '../../src/connectors/rcsb-pdb.ts';
import { loadConfig } from '../../src/config.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('rcsb-pdb', file));

describeRecordings('rcsb-pdb', () => {
  it('reads the search answer: entry ids in order and the total', () => {
    const page = parseSearch(read('search-v2-text-experimental-method-xray-entry.json'));
    expect(page).to.deep.equal({ ids: ['100D', '101D', '101M', '102D', '102L', '102M', '103L', '103M', '104L', '104M'], total: 179141 });
  });
  it('reads the 4HHB core entry: method, best resolution, release date and download links', () => {
    expect(parseEntry(read('core-entry-4HHB.json'))).to.deep.equal({
      pdbId: '4HHB',
      title: 'THE CRYSTAL STRUCTURE OF HUMAN DEOXYHAEMOGLOBIN AT 1.74 ANGSTROMS RESOLUTION',
      method: 'X-RAY DIFFRACTION',
      resolutionAngstrom: 1.74,
      releaseDate: '1984-07-17',
      organisms: undefined,
      uniprotAccessions: undefined,
      mmcifUrl: 'https://files.rcsb.org/download/4HHB.cif',
      pdbUrl: 'https://files.rcsb.org/download/4HHB.pdb',
    });
  });
});

describe('rcsb-pdb connector', () => {
  it('reads the 204 of "nothing matches" (null body) as no entries', () => {
    expect(parseSearch(null)).to.deep.equal({ ids: [], total: 0 });
  });
  it('reads GraphQL entries (hand-made fixture) with organisms and UniProt accessions, in the order asked', () => {
    const entries = parseGraphqlEntries(JSON.parse(fixture('rcsb-pdb', 'hand-made-graphql-entries-1AMB-1AAP.json')), ['1AAP', '1AMB']);
    expect(entries.map((entry) => [entry.pdbId, entry.method, entry.resolutionAngstrom, entry.organisms, entry.uniprotAccessions])).to.deep.equal([
      ['1AAP', 'X-RAY DIFFRACTION', 1.5, ['Homo sapiens'], ['P05067']],
      ['1AMB', 'SOLUTION NMR', undefined, ['Homo sapiens'], ['P05067']],
    ]);
  });
  it('turns GraphQL errors without data into an upstream error with the first message', () => {
    expect(() => parseGraphqlEntries({ errors: [{ message: 'Syntax Error' }] }, ['1AAP'])).to.throw(
      UpstreamError,
      'rcsb-pdb GraphQL answered without entries: Syntax Error',
    );
  });
  it('asks the search host beside the real data host, and the overridden host when SOURCE_RCSB_PDB_URL is set', () => {
    expect(searchBaseUrl(new UpstreamClient({ sources: loadConfig({}).sources }))).to.equal('https://search.rcsb.org');
    expect(searchBaseUrl(new UpstreamClient({ sources: loadConfig({ SOURCE_RCSB_PDB_URL: 'http://127.0.0.1:9/rcsb' }).sources }))).to.equal(
      'http://127.0.0.1:9/rcsb',
    );
  });
  it('searches entries by UniProt accession with the documented attribute and paging', () => {
    expect(accessionQuery('P05067', 5)).to.deep.include({ return_type: 'entry', request_options: { paginate: { start: 0, rows: 5 } } });
  });
});
