import { expect } from 'chai';
import * as alphafold from '../../src/connectors/alphafold.ts';
import * as chembl from '../../src/connectors/chembl.ts';
import * as clinicaltrials from '../../src/connectors/clinicaltrials.ts';
import * as crossref from '../../src/connectors/crossref.ts';
import * as doaj from '../../src/connectors/doaj.ts';
import * as ensembl from '../../src/connectors/ensembl.ts';
import * as interpro from '../../src/connectors/interpro.ts';
import * as openalex from '../../src/connectors/openalex.ts';
import * as reactome from '../../src/connectors/reactome.ts';
import * as uniprot from '../../src/connectors/uniprot.ts';
import * as unpaywall from '../../src/connectors/unpaywall.ts';
import { ApiError } from '../../src/errors.ts';
import { MemoryCache } from '../../src/upstream/cache.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { keepSlashes, path } from '../../src/upstream/path.ts';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { FastForwardClock } from '../support/clock.ts';

/** Every source of these connectors points at the fake under `/base`, so leaving the base shows in the paths received. */
function clientFor(fake: FakeUpstream): UpstreamClient {
  const source = { url: `${fake.url}/base`, timeoutMs: 2000 };
  const ids = ['ALPHAFOLD', 'CHEMBL', 'CLINICALTRIALS', 'CROSSREF', 'DOAJ', 'ENSEMBL', 'INTERPRO', 'OPENALEX', 'REACTOME', 'UNIPROT', 'UNPAYWALL'];
  return new UpstreamClient({
    sources: Object.fromEntries(ids.map((id) => [id, { ...source, key: id === 'OPENALEX' ? 'operator-key' : undefined }])),
    contactEmail: 'ops@example.org',
    cache: new MemoryCache(),
    retry: { maxAttempts: 1 },
    clock: new FastForwardClock(),
  });
}

/** Runs a lookup and keeps its error, if any (the fake answers 404 to everything). */
async function settle(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return error;
  }
}

const HOSTILE = [
  '10.1234/../../admin',
  '10.1234/a?x=1&api_key=stolen',
  '10.1234/a#frag',
  '10.1234/a%2F..%2F..%2Fadmin',
  '10.1234/a b',
  '10.1234/a\\..\\..\\admin',
];

describe('identifiers in upstream addresses', () => {
  let fake: FakeUpstream;
  let upstream: UpstreamClient;
  before(async () => {
    fake = await startFakeUpstream();
    upstream = clientFor(fake);
  });
  after(async () => fake.close());
  beforeEach(() => fake.reset());

  describe('path`…`', () => {
    it('encodes each identifier as one segment: slash, ?, #, %, backslash and space are data', () => {
      expect(path`/works/${'10.1/a?b#c%2Fd e\\f'}.json`).to.equal('/works/10.1%2Fa%3Fb%23c%252Fd%20e%5Cf.json');
    });
    it('keepSlashes keeps the slashes of a DOI and encodes each part', () => {
      expect(path`/works/${keepSlashes('10.1371/journal.pone.0033693')}`).to.equal('/works/10.1371/journal.pone.0033693');
      expect(path`/${keepSlashes('10.1/a?b')}`).to.equal('/10.1/a%3Fb');
    });
    it('refuses an empty, "." or ".." part as invalid input', () => {
      for (const [route, value] of [
        ['one', '..'],
        ['one', ''],
        ['slashes', '10.1/../x'],
        ['slashes', '10.1/./x'],
        ['slashes', '10.1//x'],
      ] as const) {
        const build = () => (route === 'one' ? path`/a/${value}` : path`/a/${keepSlashes(value)}`);
        expect(build).to.throw(ApiError, /is not an identifier that can be looked up/);
      }
    });
  });

  describe('the client', () => {
    it("refuses a path that resolves outside the source's base, a hidden query or another host, without asking", async () => {
      for (const bad of ['/../other', '/%2e%2e/other', '/a?x=1', '/a#x', '@evil.example/x', '/a\\..\\..\\x']) {
        const error = await settle(() => upstream.getJson('crossref', { path: bad }));
        expect(error, bad).to.be.instanceOf(ApiError);
        expect((error as ApiError).message).to.equal('an identifier would have changed the address asked of crossref; it was not asked');
      }
      expect(fake.hits).to.have.length(0);
    });
  });

  describe('the literature connectors', () => {
    it('crossref, unpaywall and openalex ask only within their routes for DOIs with .., ?, #, %2F, spaces and backslashes', async () => {
      for (const doi of HOSTILE) {
        await settle(() => crossref.getWork(upstream, doi));
        await settle(() => unpaywall.lookupDoi(upstream, doi));
        await settle(() => openalex.getWork(upstream, { kind: 'doi', value: doi }));
      }
      expect(fake.hits.map((hit) => hit.path)).to.deep.equal([
        '/base/works/10.1234/a%3Fx%3D1%26api_key%3Dstolen',
        '/base/10.1234/a%3Fx%3D1%26api_key%3Dstolen',
        '/base/works/https://doi.org/10.1234/a%3Fx%3D1%26api_key%3Dstolen',
        '/base/works/10.1234/a%23frag',
        '/base/10.1234/a%23frag',
        '/base/works/https://doi.org/10.1234/a%23frag',
        '/base/works/10.1234/a%252F..%252F..%252Fadmin',
        '/base/10.1234/a%252F..%252F..%252Fadmin',
        '/base/works/https://doi.org/10.1234/a%252F..%252F..%252Fadmin',
        '/base/works/10.1234/a%20b',
        '/base/10.1234/a%20b',
        '/base/works/https://doi.org/10.1234/a%20b',
        '/base/works/10.1234/a%5C..%5C..%5Cadmin',
        '/base/10.1234/a%5C..%5C..%5Cadmin',
        '/base/works/https://doi.org/10.1234/a%5C..%5C..%5Cadmin',
      ]);
      // The query is the connector's own: the caller's text never adds a parameter, and the operator's key stays where it belongs.
      expect(fake.hits.map((hit) => [...hit.query.keys()].sort().join(','))).to.deep.equal(Array(5).fill(['mailto', 'email', 'api_key,mailto']).flat());
      expect(fake.hits.every((hit) => !hit.query.has('x'))).to.equal(true);
    });
    it('a DOI with a ".." part is refused before any request', async () => {
      const errors = [
        await settle(() => crossref.getWork(upstream, '10.1234/../../admin')),
        await settle(() => unpaywall.lookupDoi(upstream, '10.1234/../../admin')),
        await settle(() => openalex.getWork(upstream, { kind: 'doi', value: '10.1234/../../admin' })),
      ];
      expect(errors.map((error) => (error as ApiError).code)).to.deep.equal(['invalid_input', 'invalid_input', 'invalid_input']);
      expect(fake.hits).to.have.length(0);
    });
    it('ISSNs and OpenAlex ids stay one segment', async () => {
      await settle(() => crossref.getJournal(upstream, '1234-5678/../../x?y'));
      await settle(() => openalex.findSource(upstream, { issn: '1234-5678/../x#y' }));
      await settle(() => openalex.getWork(upstream, { kind: 'openalex', value: 'W1/../../x' }));
      expect(fake.hits.map((hit) => hit.path)).to.deep.equal([
        '/base/journals/1234-5678%2F..%2F..%2Fx%3Fy',
        '/base/sources/issn:1234-5678%2F..%2Fx%23y',
        '/base/works/W1%2F..%2F..%2Fx',
      ]);
    });
  });

  describe('the other connectors that put input in a path', () => {
    const hostile = '../x?y=1#z %2F';
    const encoded = '..%2Fx%3Fy%3D1%23z%20%252F';
    it('alphafold, chembl, clinicaltrials, doaj, ensembl, interpro, reactome and uniprot keep it in one segment of their route', async () => {
      await settle(() => alphafold.getPrediction(upstream, hostile));
      await settle(() => chembl.getMolecule(upstream, hostile));
      await settle(() => chembl.getTarget(upstream, hostile));
      await settle(() => clinicaltrials.getStudy(upstream, hostile));
      await settle(() => doaj.searchJournals(upstream, { issn: hostile }));
      await settle(() => ensembl.lookupSymbol(upstream, 'homo_sapiens', hostile));
      await settle(() => ensembl.lookupId(upstream, hostile));
      await settle(() => interpro.entriesForProtein(upstream, hostile));
      await settle(() => reactome.pathwaysForProtein(upstream, hostile, 9606));
      await settle(() => uniprot.getEntry(upstream, hostile));
      expect(fake.hits.map((hit) => hit.path)).to.deep.equal([
        `/base/prediction/${encoded.toUpperCase()}`,
        `/base/molecule/${encoded.toUpperCase()}.json`,
        `/base/target/${encoded}.json`,
        `/base/studies/${encoded}`,
        `/base/search/journals/issn%3A${encoded}`,
        `/base/lookup/symbol/homo_sapiens/${encoded}`,
        `/base/lookup/id/${encoded}`,
        `/base/entry/interpro/protein/uniprot/${encoded}/`,
        `/base/data/mapping/UniProt/${encoded}/pathways`,
        `/base/uniprotkb/${encoded.toUpperCase()}.json`,
      ]);
    });
    it('an identifier that is ".." is refused before any request', async () => {
      const errors = [await settle(() => alphafold.getPrediction(upstream, '..')), await settle(() => uniprot.getEntry(upstream, '..'))];
      expect(errors.map((error) => (error as ApiError).code)).to.deep.equal(['invalid_input', 'invalid_input']);
      expect(fake.hits).to.have.length(0);
    });
  });
});
