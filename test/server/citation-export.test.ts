import { expect } from 'chai';
import { Cite } from '@citation-js/core';
import { parse as parseBibtex } from '@retorquere/bibtex-parser';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { describeRecordings, recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { newCaller, startServer, type TestServer } from '../support/server.ts';

const BIBTEX = 'application/x-bibtex';
const RIS = 'application/x-research-info-systems';
const CSL = 'application/vnd.citationstyles.csl+json';

interface Paper {
  title: string;
  authors: string[];
  year?: number;
  doi?: string;
}

/** The surname of a byline name as the records give it ("Given Family"). */
const surname = (name: string): string => name.trim().split(/\s+/).at(-1)!;

describeRecordings('openalex', () => {
  describeOnEachEngine('citation export of search_papers', (engine) => {
    let openalex: FakeUpstream;
    let crossref: FakeUpstream;
    let server: TestServer;
    before(async function () {
      openalex = await startFakeUpstream();
      crossref = await startFakeUpstream();
      openalex.on('/works', json(recording('openalex', 'works-list-title-search-2025.json')));
      crossref.on('/works', json(recording('crossref', 'works-query-ecology-rows2.json')));
      server = await startServer(engine.db, { env: { SOURCE_OPENALEX_URL: openalex.url, SOURCE_CROSSREF_URL: crossref.url, SOURCE_OPENALEX_KEY: 'test-key' } });
    });
    after(async function () {
      await server.close();
      await openalex.close();
      await crossref.close();
    });

    async function search(accept?: string): Promise<{ status: number; type: string | null; text: string; headers: Headers; balance: number; ledger: number }> {
      const caller = await newCaller(engine.db, 5);
      const headers: Record<string, string> = { authorization: `Bearer ${caller.key}`, 'content-type': 'application/json' };
      if (accept) headers.accept = accept;
      const answer = await fetch(`${server.baseUrl}/api/v1/search_papers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: 'ecology', sources: ['openalex', 'crossref'], limit: 20 }),
      });
      return {
        status: answer.status,
        type: answer.headers.get('content-type'),
        text: await answer.text(),
        headers: answer.headers,
        balance: await getBalance(engine.db, caller.accountId),
        ledger: await ledgerSum(engine.db, caller.accountId),
      };
    }

    async function papersAsJson(): Promise<Paper[]> {
      const answer = await search();
      expect(answer.type).to.equal('application/json; charset=utf-8');
      const records = JSON.parse(answer.text).records as Array<{ title: string; data: { authors?: string[]; year?: number; doi?: string } }>;
      expect(records.length).to.equal(4);
      expect(records.filter((record) => record.data.doi && record.data.authors?.length && record.data.year)).to.have.length(3);
      return records.map((record) => ({ title: record.title, authors: record.data.authors ?? [], year: record.data.year, doi: record.data.doi }));
    }

    it("answers BibTeX that a BibTeX parser reads back with every paper's title, authors, year and DOI, under stable keys, charged as JSON", async function () {
      const papers = await papersAsJson();
      const answer = await search(BIBTEX);
      expect([answer.status, answer.type, answer.balance, answer.ledger]).to.deep.equal([200, `${BIBTEX}; charset=utf-8`, 4, 4]);
      expect(answer.headers.get('x-credits-used')).to.equal('1');
      expect(answer.headers.get('x-call-id')).to.match(/^call_[0-9a-f]{32}$/);
      const parsed = parseBibtex(answer.text);
      expect(parsed.errors).to.deep.equal([]);
      expect(parsed.entries.map((entry) => entry.fields.doi)).to.deep.equal(papers.map((paper) => paper.doi));
      for (const [i, entry] of parsed.entries.entries()) {
        const paper = papers[i]!;
        expect(entry.fields.title, paper.doi).to.equal(paper.title);
        expect(entry.fields.year).to.equal(paper.year === undefined ? undefined : String(paper.year));
        expect(((entry.fields.author ?? []) as Array<{ lastName: string }>).map((author) => author.lastName)).to.deep.equal(paper.authors.map(surname));
      }
      const keys = parsed.entries.map((entry) => entry.key);
      expect(new Set(keys).size).to.equal(keys.length);
      expect(keys).to.deep.equal(parseBibtex((await search(BIBTEX)).text).entries.map((entry) => entry.key));
    });

    it('answers RIS and CSL-JSON that read back with the same titles, authors, years and DOIs', async function () {
      const papers = await papersAsJson();
      const ris = await search(RIS);
      expect([ris.status, ris.type]).to.deep.equal([200, `${RIS}; charset=utf-8`]);
      const csl = await search(CSL);
      expect([csl.status, csl.type]).to.deep.equal([200, `${CSL}; charset=utf-8`]);
      // Every DOI is written as RIS's own DO field.
      expect(
        ris.text
          .split('\n')
          .filter((line) => line.startsWith('DO  - '))
          .map((line) => line.slice(6)),
      ).to.deep.equal(papers.flatMap((paper) => (paper.doi ? [paper.doi] : [])));
      for (const items of [new Cite(ris.text).data, JSON.parse(csl.text) as Array<Record<string, any>>]) {
        expect(items.map((item: Record<string, any>) => item.DOI)).to.deep.equal(papers.map((paper) => paper.doi));
        for (const [i, item] of items.entries()) {
          const paper = papers[i]!;
          expect(item.title).to.equal(paper.title);
          expect(item.issued?.['date-parts'][0][0]).to.equal(paper.year);
          expect((item.author ?? []).map((author: { family: string }) => author.family)).to.deep.equal(paper.authors.map(surname));
        }
      }
    });

    it('answers 406 JSON, charging nothing, when Accept names no format the tool gives', async function () {
      const answer = await search('text/csv');
      expect([answer.status, answer.type, answer.balance]).to.deep.equal([406, 'application/json; charset=utf-8', 5]);
      expect(JSON.parse(answer.text)).to.deep.equal({
        error: { code: 'not_acceptable', message: `Accept: search_papers cannot answer "text/csv"; it answers application/json, ${BIBTEX}, ${RIS}, ${CSL}` },
      });
    });

    it('understands media-type parameters: the types it sends, with charset=utf-8, are acceptable; another charset is not', async function () {
      const json = await search('application/json; charset=utf-8');
      expect([json.status, json.type]).to.deep.equal([200, 'application/json; charset=utf-8']);
      const bibtex = await search(`${BIBTEX}; charset=UTF-8`);
      expect([bibtex.status, bibtex.type]).to.deep.equal([200, `${BIBTEX}; charset=utf-8`]);
      const weighted = await search(`application/json;q=0.5, ${RIS}; charset=utf-8; q=0.9`);
      expect([weighted.status, weighted.type]).to.deep.equal([200, `${RIS}; charset=utf-8`]);
      const latin1 = await search('application/json; charset=iso-8859-1');
      expect([latin1.status, latin1.balance]).to.deep.equal([406, 5]);
    });

    it('writes each RIS value on its own tagged line, never broken inside a value, however long', async function () {
      const ris = await search(RIS);
      const lines = ris.text.split('\n');
      expect(lines.filter((line) => !/^[A-Z][A-Z0-9] {2}- /.test(line))).to.deep.equal([]);
      const titles = lines.filter((line) => line.startsWith('TI  - ')).map((line) => line.slice(6));
      const papers = await papersAsJson();
      expect(titles).to.deep.equal(papers.map((paper) => paper.title));
      // Some values are longer than the 70 characters at which the RIS plugin would break them.
      expect(Math.max(...lines.map((line) => line.length))).to.be.greaterThan(6 + 70);
    });

    it('keeps JSON for Accept: */* and for tools without citations, and refuses BibTeX from those', async function () {
      expect((await search('*/*')).type).to.equal('application/json; charset=utf-8');
      const caller = await newCaller(engine.db, 5);
      const headers = { authorization: `Bearer ${caller.key}`, 'content-type': 'application/json', accept: BIBTEX };
      const answer = await fetch(`${server.baseUrl}/api/v1/list_capabilities`, { method: 'POST', headers, body: '{}' });
      expect(answer.status).to.equal(406);
    });
  });
});
