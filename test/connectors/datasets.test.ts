import { expect } from 'chai';
import * as datacite from '../../src/connectors/datacite.ts';
import { spdxLicense } from '../../src/connectors/datasets.ts';
import * as dataverse from '../../src/connectors/dataverse.ts';
import * as dryad from '../../src/connectors/dryad.ts';
import * as huggingface from '../../src/connectors/huggingface.ts';
import * as zenodo from '../../src/connectors/zenodo.ts';
import { reasonFromBody } from '../../src/upstream/body.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

const read = (source: string, file: string) => JSON.parse(recording(source, file));

/** The recorded description as plain text (entities decoded), cut at 500 characters on a word boundary. */
const DESCRIPTION =
  'Bulgarian dairy production makes up a significant portion of the overall agricultural sector\'s production (12% in 2021). The study reveals its development and quantifies sectoral competitive performance. The period under review began after Bulgaria acceded to the EU in 2007. Canada\'s Task Force for Competitiveness in the Agri-Food Sector developed a theoretical framework, defined as "the sustained ability to profitably gain and maintain market share" (Martin et al. 1991), which forms the basis…';

describeRecordings('zenodo', () => {
  it('reads the 2022 dataset search: DOI, creators, date, file sizes and formats, SPDX licence', () => {
    const datasets = zenodo.parseSearch(read('zenodo', 'legacy-2022-records-search-type-dataset.json'));
    expect(datasets.map((dataset) => [dataset.nativeId, dataset.data.doi, dataset.data.version])).to.deep.equal([
      ['7089059', '10.5281/zenodo.7089059', undefined],
      ['7078760', '10.5281/zenodo.7078760', undefined],
      ['7089818', '10.5281/zenodo.7089818', '1.4'],
    ]);
    expect(datasets[1]).to.deep.equal({
      nativeId: '7078760',
      title: 'Frictionless Data Test Dataset',
      url: 'https://zenodo.org/record/7078760',
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
        version: undefined,
      },
    });
  });

  it('reads a single record, an empty search, and the reason of a 404', () => {
    const record = zenodo.parseRecord(read('zenodo', 'legacy-2022-record-7078768.json'));
    expect([record!.data.size_bytes, record!.data.file_count, record!.data.formats, record!.data.creators]).to.deep.equal([
      6220,
      2,
      ['csv', 'xls'],
      ['FD Testing'],
    ]);
    expect(zenodo.parseSearch(read('zenodo', 'legacy-2022-records-search-no-hits.json'))).to.deep.equal([]);
    expect(reasonFromBody('application/json', recording('zenodo', 'legacy-2022-record-404-pid-does-not-exist.json'))).to.equal('PID does not exist.');
    expect(reasonFromBody('text/html', recording('zenodo', 'legacy-2022-308-redirect-records-without-trailing-slash.txt'))).to.equal(
      'an HTML page titled "Redirecting..."',
    );
  });

  it('reads the InvenioRDM search of 2026: string id, pids DOI, person_or_org creators, subjects, rights, file entries', () => {
    expect(zenodo.parseSearch(read('zenodo', 'inveniordm-2026-records-search-doi-ap.e134190.json'))).to.deep.equal([
      {
        nativeId: '15308258',
        title: 'Representing competitiveness of Bulgarian dairy production',
        url: 'https://zenodo.org/records/15308258',
        data: {
          doi: '10.3897/ap.e134190',
          creators: ['Stoychev, Vassil'],
          year: 2025,
          publication_date: '2025-04-28',
          repository: 'Zenodo',
          description: DESCRIPTION,
          keywords: ['milk', 'dairy products', 'competitiveness index'],
          size_bytes: 588297,
          file_count: 2,
          formats: ['pdf', 'xml'],
          dataset_license: 'CC-BY-4.0',
          version: undefined,
        },
      },
    ]);
  });
});

describeRecordings('dryad', () => {
  it('reads the 2020 list (storage_size) and the 2022 record (storageSize, CC0 licence URL)', () => {
    const [first] = dryad.parseList(read('dryad', 'v2-datasets-list-page1-first3.json'));
    expect({ ...first, data: { ...first!.data, description: first!.data.description?.slice(0, 40), keywords: first!.data.keywords?.length } }).to.deep.equal({
      nativeId: '10.5061/dryad.7rh4625',
      title: 'Data from: Distinct predatory behaviors in scimitar- and dirk-toothed sabertooth cats',
      url: 'https://datadryad.org/stash/dataset/doi:10.5061/dryad.7rh4625',
      data: {
        doi: '10.5061/dryad.7rh4625',
        creators: ['Borja Figueirido', 'Stephan Lautenschlager', 'Alejandro Perez-Ramos', 'Blaire Van Valkenburgh'],
        year: 2019,
        publication_date: '2019-08-14',
        repository: 'Dryad',
        description: 'Over the Cenozoic, large cat-like forms ',
        keywords: 15,
        size_bytes: 999901812,
        dataset_license: undefined,
        version: '1',
      },
    });
    const record = dryad.parseDataset(read('dryad', 'v2-dataset-by-doi-2rbnzs7jp-jan2022.json'));
    expect([
      record!.data.doi,
      record!.data.size_bytes,
      record!.data.dataset_license,
      record!.data.version,
      record!.data.creators!.length,
      record!.data.description!.length,
    ]).to.deep.equal(['10.5061/dryad.2rbnzs7jp', 23874866, 'CC0-1.0', '4', 20, 489]);
  });
});

describeRecordings('dataverse', () => {
  it('reads dataset items (DOI lower-case, version, file count) and leaves collections and files out', () => {
    const finches = dataverse.parseSearch(read('dataverse', 'docs-example-search-q-finch-type-dataset-published.json'));
    expect(finches[0]).to.deep.equal({
      nativeId: 'doi:10.70122/FK2/GUAS41',
      title: "Darwin's Finches",
      url: 'https://doi.org/10.70122/FK2/GUAS41',
      data: {
        doi: '10.70122/fk2/guas41',
        creators: ['Finch, Fiona'],
        year: 2019,
        publication_date: '2019-12-24',
        repository: 'Harvard Dataverse',
        description: "Darwin's finches (also known as the Galápagos finches) are a group of about fifteen species of passerine birds.",
        keywords: ['Medicine, Health and Life Sciences'],
        file_count: 6,
        version: '1.0',
      },
    });
    const trees = dataverse.parseSearch(read('dataverse', 'docs-example-search-q-trees-all-types.json'));
    expect(trees.map((dataset) => [dataset.nativeId, dataset.data.creators!.length, dataset.data.file_count])).to.deep.equal([
      ['doi:10.70122/FK2/MB5VGR', 4, 3],
    ]);
  });

  it('an ERROR status is a failure keeping its message', () => {
    expect(() => dataverse.parseSearch({ status: 'ERROR', message: "Search Syntax Error: Cannot parse '('" })).to.throw(
      "dataverse answered with an error: Search Syntax Error: Cannot parse '('",
    );
  });
});

describeRecordings('datacite', () => {
  it('reads the five 2020 DOIs: licences from rights URLs, Issued dates only when full, publisher as repository', () => {
    const datasets = datacite.parseDois(read('datacite', 'dois-page-size-5-jan2020.json'));
    expect(
      datasets.map((dataset) => [
        dataset.nativeId,
        dataset.data.year,
        dataset.data.publication_date,
        dataset.data.repository,
        dataset.data.dataset_license,
        dataset.data.version,
      ]),
    ).to.deep.equal([
      ['10.5281/zenodo.3596961', 2020, '2020-01-02', 'Zenodo', undefined, 'v1.0.1'],
      ['10.5281/zenodo.3520062', 2019, '2019-10-31', 'Zenodo', 'CC-BY-4.0', undefined],
      ['10.5281/zenodo.3520063', 2019, '2019-10-31', 'Zenodo', 'CC-BY-4.0', undefined],
      ['10.15468/dl.msish2', 2020, undefined, 'The Global Biodiversity Information Facility', 'CC-BY-NC-4.0', undefined],
      ['10.17605/osf.io/vr6nb', 2020, undefined, 'Open Science Framework', undefined, undefined],
    ]);
    expect([datasets[3]!.data.formats, datasets[3]!.data.keywords, datasets[3]!.data.size_bytes, datasets[3]!.url]).to.deep.equal([
      ['Darwin Core Archive'],
      ['GBIF', 'biodiversity', 'species occurrences'],
      undefined,
      'https://www.gbif.org/occurrence/download/0032314-191105090559680',
    ]);
    expect(datasets[0]!.data.creators).to.deep.equal(['Gómez, Francis']);
  });
});

describe('dataset connectors on hand-made bodies (documented formats)', () => {
  it('huggingface: licence, formats, DOI and categories from tags; no year from the placeholder creation date', () => {
    expect(huggingface.parseList(JSON.parse(fixture('huggingface', 'hand-made-datasets-search-capitals.json')))).to.deep.equal([
      {
        nativeId: 'example-org/world-capitals',
        title: 'example-org/world-capitals',
        url: 'https://huggingface.co/datasets/example-org/world-capitals',
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
        },
      },
      {
        nativeId: 'someone/old-capitals',
        title: 'someone/old-capitals',
        url: 'https://huggingface.co/datasets/someone/old-capitals',
        data: {
          doi: undefined,
          creators: ['someone'],
          year: undefined,
          publication_date: undefined,
          repository: 'Hugging Face Hub',
          description: undefined,
          keywords: undefined,
          formats: undefined,
          dataset_license: undefined,
        },
      },
    ]);
  });

  it('datacite: an SPDX rights identifier, a size in bytes, a publisher object; and its JSON:API error reason', () => {
    const [zenodoDoi, other] = datacite.parseDois(JSON.parse(fixture('datacite', 'hand-made-dois-dataset-capitals.json')));
    expect([
      zenodoDoi!.data.doi,
      zenodoDoi!.data.dataset_license,
      zenodoDoi!.data.size_bytes,
      other!.data.repository,
      other!.data.size_bytes,
      other!.data.description,
    ]).to.deep.equal(['10.5281/zenodo.7078760', 'CC-BY-4.0', 174, 'Example Repository', undefined, undefined]);
    expect(reasonFromBody('application/vnd.api+json', '{"errors":[{"status":"400","title":"Invalid query"}]}')).to.equal('Invalid query');
  });

  it('licences become SPDX ids', () => {
    expect(
      [
        'CC-BY-4.0',
        'cc-by-nc-sa-4.0',
        'mit',
        'apache-2.0',
        'odc-by',
        'https://creativecommons.org/publicdomain/zero/1.0/',
        'http://creativecommons.org/licenses/by-sa/3.0/legalcode',
        'other',
        'info:eu-repo/semantics/openAccess',
      ].map(spdxLicense),
    ).to.deep.equal(['CC-BY-4.0', 'CC-BY-NC-SA-4.0', 'MIT', 'Apache-2.0', 'ODC-By-1.0', 'CC0-1.0', 'CC-BY-SA-3.0', undefined, undefined]);
  });
});
