import { expect } from 'chai';
import { mergeByDoi } from '../../src/tools/search-datasets.ts';
import { recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { down, expectCharged, expectNotCharged, sourcesHarness, own, recorded } from '../life/support.ts';

const SOURCES = ['zenodo', 'dryad', 'dataverse', 'huggingface', 'datacite'] as const;
const PARTIAL = ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id'];

describeOnEachEngine('search_datasets over HTTP', (engine) => {
  const datasets = sourcesHarness(engine, SOURCES);

  function serveAll(): void {
    // Zenodo answered the no-slash address with a redirect in 2022: the redirect is followed.
    datasets.on('zenodo', '/records', {
      status: 308,
      body: recording('zenodo', 'legacy-2022-308-redirect-records-without-trailing-slash.txt'),
      contentType: 'text/html; charset=utf-8',
      headers: { location: '/zenodo/records/' },
    });
    datasets.on('zenodo', '/records/', recorded('zenodo', 'legacy-2022-records-search-type-dataset.json'));
    datasets.on('dryad', '/search', recorded('dryad', 'v2-datasets-list-page1-first3.json'));
    datasets.on('dataverse', '/search', recorded('dataverse', 'docs-example-search-q-finch-type-dataset-published.json'));
    datasets.on('huggingface', '/datasets', own('huggingface', 'hand-made-datasets-search-capitals.json'));
    datasets.on('datacite', '/dois', own('datacite', 'hand-made-dois-dataset-capitals.json'));
  }

  it('interleaves the five sources and merges a Zenodo record found again through DataCite (DOI case ignored) into one naming both', async () => {
    serveAll();
    const result = await datasets.charged('search_datasets', { query: 'capitals', limit: 8 });
    expectCharged(result);
    const records = result.answer.body.records;
    expect(records.map((record: any) => [record.id, record.data.found_in])).to.deep.equal([
      ['zenodo:7089059', ['zenodo']],
      ['dryad:10.5061/dryad.7rh4625', ['dryad']],
      ['dataverse:doi:10.70122/FK2/GUAS41', ['dataverse']],
      ['huggingface:example-org/world-capitals', ['huggingface']],
      ['zenodo:7078760', ['zenodo', 'datacite']],
      ['dryad:10.5061/dryad.r8d4q', ['dryad']],
      ['dataverse:doi:10.70122/FK2/7ZXYRH', ['dataverse']],
      ['huggingface:someone/old-capitals', ['huggingface']],
    ]);
    expect({ ...records[4], retrievedAt: undefined }).to.deep.equal({
      id: 'zenodo:7078760',
      type: 'dataset',
      source: 'zenodo',
      title: 'Frictionless Data Test Dataset',
      url: 'https://zenodo.org/record/7078760',
      license: 'CC0-1.0 (metadata; files per record licence)',
      attribution: 'Zenodo (zenodo.org); cite the record DOI',
      retrievedAt: undefined,
      data: {
        doi: '10.5281/zenodo.7078760',
        creators: ['FD Tester'],
        year: 2022,
        publication_date: '2022-09-14',
        repository: 'Zenodo',
        description: 'This is a test dataset',
        keywords: ['FDTD', 'TDBASIC'],
        size_bytes: 1768,
        file_count: 3,
        formats: ['csv', 'json'],
        dataset_license: 'CC-BY-4.0',
        found_in: ['zenodo', 'datacite'],
      },
    });
    expect({ ...records[3], retrievedAt: undefined }).to.deep.equal({
      id: 'huggingface:example-org/world-capitals',
      type: 'dataset',
      source: 'huggingface',
      title: 'example-org/world-capitals',
      url: 'https://huggingface.co/datasets/example-org/world-capitals',
      license: 'per dataset (cardData.license)',
      attribution: 'Hugging Face Hub (huggingface.co/datasets); licence as declared by each dataset',
      retrievedAt: undefined,
      data: {
        doi: '10.57967/hf/0001',
        creators: ['example-org'],
        year: 2023,
        publication_date: '2023-11-20',
        repository: 'Hugging Face Hub',
        description: 'Hand-made test dataset: capitals of the world',
        keywords: ['table-question-answering', 'geography'],
        formats: ['csv', 'parquet'],
        dataset_license: 'CC-BY-4.0',
        found_in: ['huggingface'],
      },
    });
    expect(records[2].data).to.deep.equal({
      doi: '10.70122/fk2/guas41',
      creators: ['Finch, Fiona'],
      year: 2019,
      publication_date: '2019-12-24',
      repository: 'Harvard Dataverse',
      description: "Darwin's finches (also known as the Galápagos finches) are a group of about fifteen species of passerine birds.",
      keywords: ['Medicine, Health and Life Sciences'],
      file_count: 6,
      version: '1.0',
      found_in: ['dataverse'],
    });
    expect(result.answer.body.summary).to.equal('8 datasets for "capitals" from zenodo, dryad, dataverse, huggingface, datacite, duplicates merged by DOI.');
    const zenodoQuery = datasets.hits('zenodo', '/records')[0]!.query;
    expect([zenodoQuery.get('q'), zenodoQuery.get('type'), zenodoQuery.get('size')]).to.deep.equal(['capitals', 'dataset', '8']);
    expect(datasets.hits('datacite', '/dois')[0]!.query.get('resource-type-id')).to.equal('dataset');
    expect(datasets.hits('dataverse', '/search')[0]!.query.get('type')).to.equal('dataset');
  });

  it("the repository's own record wins over DataCite's even when DataCite listed it first; sources limits who is asked", async () => {
    datasets.on('zenodo', '/records', recorded('zenodo', 'legacy-2022-records-search-type-dataset.json'));
    datasets.on('datacite', '/dois', own('datacite', 'hand-made-dois-dataset-capitals.json'));
    const result = await datasets.charged('search_datasets', { query: 'capitals', sources: ['datacite', 'zenodo'] });
    expectCharged(result);
    expect(result.answer.body.records.map((record: any) => record.id)).to.deep.equal([
      'zenodo:7078760',
      'zenodo:7089059',
      'datacite:10.1234/HAND-MADE.CAPITALS',
      'zenodo:7089818',
    ]);
    const other = result.answer.body.records[2];
    expect([other.url, other.data]).to.deep.equal([
      'https://repository.example.org/capitals',
      {
        doi: '10.1234/hand-made.capitals',
        creators: ['Example Data Office'],
        year: 2021,
        repository: 'Example Repository',
        found_in: ['datacite'],
      },
    ]);
    expect([
      datasets.hits('dryad', '/search').length,
      datasets.hits('huggingface', '/datasets').length,
      datasets.hits('dataverse', '/search').length,
    ]).to.deep.equal([0, 0, 0]);
  });

  it("when some sources fail the others answer: partial, each with its reason (Dataverse's ERROR status, Zenodo's 404 message)", async () => {
    serveAll();
    datasets.on('dataverse', '/search', {
      status: 400,
      body: '{"status":"ERROR","message":"Search Syntax Error: Cannot parse"}',
      contentType: 'application/json',
    });
    datasets.on('zenodo', '/records', recorded('zenodo', 'legacy-2022-record-404-pid-does-not-exist.json', { status: 404 }));
    const result = await datasets.charged('search_datasets', { query: 'capitals', limit: 3 });
    expectCharged(result, PARTIAL);
    expect(result.answer.body.failedSources).to.deep.equal([
      { source: 'zenodo', error: 'zenodo answered HTTP 404: PID does not exist.' },
      { source: 'dataverse', error: 'dataverse answered HTTP 400: Search Syntax Error: Cannot parse' },
    ]);
    expect(result.answer.body.records.map((record: any) => record.source)).to.deep.equal(['dryad', 'huggingface', 'datacite']);
  });

  it('is a 502, not charged, when every source fails', async () => {
    for (const [source, path] of [
      ['zenodo', '/records'],
      ['dryad', '/search'],
      ['dataverse', '/search'],
      ['huggingface', '/datasets'],
      ['datacite', '/dois'],
    ] as const)
      datasets.on(source, path, down);
    const result = await datasets.charged('search_datasets', { query: 'capitals' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.match(/^no source answered: zenodo answered HTTP 503: service unavailable; dryad answered HTTP 503/);
  });

  it('rejects an unknown source and a limit over 100, naming the field', async () => {
    for (const [body, pattern] of [
      [{ query: 'x', sources: ['figshare'] }, /^sources\.0: /],
      [{ query: 'x', limit: 101 }, /^limit: /],
    ] as const) {
      const result = await datasets.charged('search_datasets', body);
      expectNotCharged(result, 400, 'invalid_input');
      expect(result.answer.body.error.message).to.match(pattern);
    }
  });
});

describe('merging datasets by DOI', () => {
  it('keeps the place of the first, takes the record of the preferred source and fills the fields it lacks from the others', () => {
    const at = '2026-01-01T00:00:00.000Z';
    const merged = mergeByDoi([
      {
        source: 'datacite',
        retrievedAt: at,
        dataset: { nativeId: '10.5281/ZENODO.1', title: 'From DataCite', data: { doi: '10.5281/zenodo.1', version: 'v2', size_bytes: 10 } },
      },
      { source: 'dryad', retrievedAt: at, dataset: { nativeId: '10.5061/dryad.x', data: {} } },
      { source: 'zenodo', retrievedAt: at, dataset: { nativeId: '1', title: 'From Zenodo', data: { doi: '10.5281/zenodo.1', size_bytes: 12 } } },
    ]);
    expect(merged.map((entry) => [entry.source, entry.dataset.nativeId, entry.dataset.title, entry.dataset.data, entry.foundIn])).to.deep.equal([
      ['zenodo', '1', 'From Zenodo', { doi: '10.5281/zenodo.1', version: 'v2', size_bytes: 12 }, ['zenodo', 'datacite']],
      ['dryad', '10.5061/dryad.x', undefined, {}, ['dryad']],
    ]);
  });
});
