/**
 * Every real recording in test/recordings/<source>/ of every connector, with
 * its status: a test of this project reads it (through recording(); after the whole run, a check
 * finds each one among the recordings the run's tests read, test/support/recordings-read.ts), or
 * the connector never calls the endpoint that produced it, with the reason, shown by running the
 * source's tools against a fake upstream that never sees that request. The table is checked against
 * each folder's actual file list, so a new recording cannot be silently ignored. Below it, the tests
 * of recordings no other file reads.
 */
import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import * as crossref from '../../src/connectors/crossref.ts';
import * as doaj from '../../src/connectors/doaj.ts';
import * as europepmc from '../../src/connectors/europepmc.ts';
import * as gbif from '../../src/connectors/gbif.ts';
import * as openalex from '../../src/connectors/openalex.ts';
import * as openfda from '../../src/connectors/openfda.ts';
import * as uniprot from '../../src/connectors/uniprot.ts';
import * as usgs from '../../src/connectors/usgs-earthquakes.ts';
import { MemoryCache } from '../../src/upstream/cache.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { sources as manifestSources } from '../../generated/tools.ts';
import { startFakeUpstream, type FakeUpstream, type Hit } from '../support/fake-upstream.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { requestRecordingsCheck, unreadRecordings } from '../support/recordings-read.ts';
import { own, sourcesHarness } from '../life/support.ts';
import { KEYS, serveData, serveSearches, type StatisticsHarness } from '../statistics/support.ts';
import { describeRecordings, recording, recordingsFolder } from './recordings.ts';
import { FastForwardClock } from '../support/clock.ts';

/** A test of this project reads the recording (through recording()). */
const TESTED = { tested: true } as const;
/** The recording answers a request the connector never makes. */
const never = (reason: string) => ({ never: reason }) as const;
type Status = typeof TESTED | ReturnType<typeof never>;

const RECORDINGS: Record<string, Record<string, Status>> = {
  openalex: {
    'error-400-invalid-filter.json': TESTED,
    'error-400-invalid-select.json': TESTED,
    'error-401-invalid-api-key.json': TESTED,
    'source-S137773608-nature.json': TESTED,
    'work-by-doi-10.1371-journal.pone.0000030.json': TESTED,
    'work-by-id-W2162348455.json': TESTED,
    'work-not-found-404.txt': TESTED,
    'works-list-sample-2026.json': TESTED,
    'works-list-title-abstract-search.json': TESTED,
    'works-list-title-search-2025.json': TESTED,
  },
  pubmed: {
    'efetch-pubmed-22351513-structured-abstract.xml': TESTED,
    'efetch-pubmed-29915538-with-pmc-and-references.xml': TESTED,
    'esearch-term-darwin-au.json': TESTED,
    'esummary-id-27933103.json': TESTED,
  },
  arxiv: {
    'id_list-0000.0000-no-results.xml': TESTED,
    'id_list-2104.12255v1.xml': TESTED,
    'id_list-abc-error-400.xml': TESTED,
    'id_list-astro-ph-0601001.xml': TESTED,
    'query-search_query-testing-max10-trimmed.xml': TESTED,
  },
  'inspire-hep': {
    'literature-list-size10-page1.json': TESTED,
    'literature-record-1842768.json': TESTED,
  },
  eric: {
    'search-blockchain-json.json': TESTED,
  },
  crossref: {
    'error-400-validation-failure.json': TESTED,
    'journal-issn-1803-2427.json': TESTED,
    'journal-issn-1932-6203-plos-one-2022.json': TESTED,
    'journal-issn-not-found-404.txt': TESTED,
    'prefix-works-items-with-update-to-and-updated-by.json': TESTED,
    'work-10.1371-journal.pone.0033693-updated-by-correction.json': TESTED,
    'work-not-found-404.txt': TESTED,
    'works-query-ecology-rows2.json': TESTED,
    'works-query-no-results.json': TESTED,
    'works-query-title-author-select.json': TESTED,
    'works-query-title-rows1.json': TESTED,
  },
  dblp: {
    'search-publ-q-test-star-2019.json': TESTED,
    'search-publ-q-test-star-h1-pid-format.json': TESTED,
  },
  europepmc: {
    'search-no-results-json.json': TESTED,
    'search-query-cancer-lite-json.json': TESTED,
    'search-query-cancer-resultType-core-json.json': TESTED,
    'search-query-cancer-resultType-idlist-json.json': never('resultType=idlist; the connector asks resultType=core'),
  },
  unpaywall: {
    'v2-doi-10.1007-s40278-023-41815-2-closed.json': TESTED,
    'v2-doi-10.1016-j.xgen.2025.100814.json': TESTED,
    'v2-doi-10.1073-pnas.1414271111-bronze-oa.json': TESTED,
    'v2-search-no-results.json': never('the title search /v2/search; the connector looks up one DOI (/v2/{doi})'),
  },
  doaj: {
    'v2-journal-by-id-f3f2e7f23d444370ae5f5199f85bc100.json': TESTED,
    'v2-search-journals-keywords-heritage-trimmed.json': TESTED,
    'v2-search-journals-publisher-ecology-pageSize2.json': TESTED,
  },
  'ncbi-gene': {
    'esearch-gene-term-CDDG1-zero-hits.json': TESTED,
    'esearch-gene-term-ENSG00000172009-one-hit.json': TESTED,
    'esearch-gene-term-PCH3-two-hits.json': TESTED,
    'esummary-gene-27445-373073-PCLO-CLAM.json': TESTED,
    'esummary-gene-7064-THOP1.json': TESTED,
    'esummary-gene-invalid-uid-error-http200.json': TESTED,
  },
  uniprot: {
    'entry-P05067-APP-human-swissprot.json': TESTED,
    'entry-P15056-BRAF-minimized.json': TESTED,
    'search-BRAF-human-reviewed-minimized.json': TESTED,
    'search-query-glucose-size2-with-facets.json': TESTED,
  },
  ensembl: {
    'lookup-id-ENSG00000164219-PGGT1B-expand1.json': TESTED,
    'lookup-symbol-POST-human-symbols-BRCA2-BR.json': TESTED,
    'lookup-symbol-homo_sapiens-BR-error-400.json': TESTED,
    'lookup-symbol-homo_sapiens-BRCA2.json': TESTED,
  },
  reactome: {
    'data-query-R-HSA-5673001-minimized.json': TESTED,
  },
  string: {
    'interaction-partners-PGGT1B-9606-limit10.json': TESTED,
    'network-BRAF-9606-limit15-first5rows.json': TESTED,
  },
  interpro: {},
  'rcsb-pdb': {
    'core-entry-4HHB.json': TESTED,
    'search-v2-text-experimental-method-xray-entry.json': TESTED,
  },
  alphafold: {
    'prediction-P05067-all-isoforms-v6.json': TESTED,
  },
  clinicaltrials: {
    'studies-search-cond-melanoma-status-recruiting-pagesize3-fields.json': TESTED,
    'studies-search-cond-phelan-mcdermid-page2-via-pagetoken.json': TESTED,
    'studies-search-intr-keytruda-pagesize3-fields.json': TESTED,
    'study-NCT02210780-full-record-with-results.json': TESTED,
    'study-NCT06604689-fields.json': TESTED,
  },
  chembl: {
    'mechanism-molecule-CHEMBL3137343-pembrolizumab.json': TESTED,
    'target-CHEMBL4135.json': TESTED,
  },
  openfda: {
    'error-400-bad-request-sort-field.json': TESTED,
    'error-404-no-matches-found.json': TESTED,
    'error-500-server-error-query-syntax.json': TESTED,
    'event-count-reactionmeddrapt-pembrolizumab-limit1.json': TESTED,
    'label-search-keytruda-minimized.json': TESTED,
  },
  gtex: {
    'median-gene-expression-cftr-gtex_v8.json': TESTED,
    'reference-gene-cftr-v26.json': TESTED,
    'reference-gene-error-422-invalid-page.json': TESTED,
    'reference-gene-not-found-empty.json': TESTED,
    'reference-geneSearch-crp-itemsPerPage1.json': TESTED,
  },
  geo: {
    'esearch-gds-GSE93374-accession.json': TESTED,
    'esummary-gds-200093374-GSE93374.json': TESTED,
  },
  simbad: {
    'cone-search-mivot-barnards-star.vot.xml': TESTED,
    'sim-script-error-votable.txt': TESTED,
    'sim-script-idlist-polaris.txt': TESTED,
    'sim-script-query-id-m1-votable.txt': TESTED,
  },
  'exoplanet-archive': {
    'system-aliaslookup-bet-pic.json': never('the name-resolution service (cgi-bin/Lookup); search_exoplanets asks the TAP service only'),
    'tap-sync-k2names-json-trimmed.json': TESTED,
    'tap-sync-keplernames-top5-csv.csv': never('CSV of the keplernames table; the connector asks pscomppars for JSON'),
    'tap-sync-ps-plname-discoverymethod-json-trimmed.json': TESTED,
    'tap-sync-pscomppars-plname-csv-trimmed.csv': never('CSV; the connector asks for format=json'),
  },
  gaia: {
    'cone-search-dr3-top50-trimmed-3rows.json': TESTED,
    'source-id-query-dr3-2rows.vot.xml': TESTED,
    'sync-top1-sourceid-ra-dec-parallax.json': TESTED,
  },
  'usgs-earthquakes': {
    'count-northridge.json': never('the /count endpoint; search_earthquakes asks /query'),
    'error-400-bad-starttime.txt': TESTED,
    'event-detail-ci3144585.json': never('one event by eventid (a Feature with products); the connector only searches /query by time, place and magnitude'),
    'query-empty-result.json': TESTED,
    'query-northridge-m6.6-one-result.json': TESTED,
    'query-three-results-null-magnitude.json': TESTED,
  },
  oeis: {
    'search-id-A144640-legacy-object-format.json': TESTED,
    'search-id-A200083-legacy-object-format.json': TESTED,
  },
  pubchem: {
    'property-table-cid-5564-2244-all-properties.json': TESTED,
    'property-table-cid-5564-formula-weight.json': TESTED,
    'pugview-cid-176-record-description.json': never(
      'PUG View record descriptions: lookup_compound reads the PUG REST property and synonym tables, and ChEBI gives the definition',
    ),
    'synonyms-name-aspirin.json': TESTED,
  },
  chebi: {
    'ols4-software-testcase-v1-term-shape-NOT-chebi.json': never(
      "an OLS4 term of another ontology, kept to show a shape that is not ChEBI's; the connector asks the ChEBI 2.0 REST API",
    ),
    'soap-retired-getCompleteEntity-27732-caffeine.xml': never('the ChEBI SOAP service is retired; the connector asks the ChEBI 2.0 REST API'),
    'soap-retired-getLiteEntity-glyphosate.xml': never('the ChEBI SOAP service is retired; the connector asks the ChEBI 2.0 REST API'),
    'soap-retired-getLiteEntity-no-hit-balloon.xml': never('the ChEBI SOAP service is retired; the connector asks the ChEBI 2.0 REST API'),
  },
  cod: {
    'result-text-aspirin-first5.json': TESTED,
  },
  europeana: {
    'search-mona-lisa-2015-api-v2.json': TESTED,
  },
  nih: {
    'v1-projects-search-advanced-text-qualitative-data-offset2500-first3.json': TESTED,
  },
  nsf: {
    'awards-keyword-qualitative-2019-offset1-first3.json': TESTED,
    'awards-keyword-qualitative-2019-offset26-first3.json': TESTED,
  },
  zenodo: {
    'inveniordm-2026-records-search-doi-ap.e134190.json': TESTED,
    'legacy-2022-308-redirect-records-without-trailing-slash.txt': TESTED,
    'legacy-2022-record-404-pid-does-not-exist.json': TESTED,
    'legacy-2022-record-7078768.json': TESTED,
    'legacy-2022-records-search-no-hits.json': TESTED,
    'legacy-2022-records-search-type-dataset.json': TESTED,
  },
  dryad: {
    'v2-dataset-by-doi-2rbnzs7jp-jan2022.json': TESTED,
    'v2-datasets-list-page1-first3.json': TESTED,
  },
  dataverse: {
    'docs-example-search-q-finch-type-dataset-published.json': TESTED,
    'docs-example-search-q-trees-all-types.json': TESTED,
  },
  datacite: {
    'dois-page-size-5-jan2020.json': TESTED,
  },
  fred: {
    'error-400-invalid-series-id.json': TESTED,
    'series-gdp.json': TESTED,
    'series-observations-empty.json': TESTED,
    'series-observations-gdp.json': TESTED,
    'series-search-full-text.json': TESTED,
    'series-search-oil.json': TESTED,
  },
  'world-bank': {
    'error-invalid-indicator.json': TESTED,
    'error-invalid-source-400.txt': TESTED,
    'indicator-data-jpn-usa-gdp-2018-2019.json': TESTED,
    'indicator-data-jpn-usa-gdp-page1.json': TESTED,
    'indicator-metadata.json': TESTED,
    'indicators-list.json': TESTED,
  },
  bls: {
    'labstat-ce-series-first-999.tsv': TESTED,
    'labstat-cu-series-first-100.tsv': TESTED,
    'labstat-ln-series-first-6.tsv': TESTED,
    'timeseries-post-catalog-calculations.json': TESTED,
    'timeseries-post-cpi-1913-1914.json': TESTED,
    'timeseries-post-cpi-1913-annualaverage.json': TESTED,
  },
  census: {
    'data-json-catalogue-excerpt.json': TESTED,
    'variables-acs1-2019-profile-excerpt.json': TESTED,
  },
  oecd: {
    'availability-v2-kei-all-areas.json': TESTED,
    'availability-v2-kei-gbr-q.json': TESTED,
    'availability-v2-kei-gbr.json': TESTED,
    'data-v1-kei-gbr-irlt-2023.csv': TESTED,
    'data-v1-lfs-ialfs-indic-deu-unemployment-rate-excerpt.csv': TESTED,
    'data-v1-stes-finmark-irlt-annual-deu-excerpt.csv': TESTED,
    'data-v2-lfs-usa-unemployment-labels.csv': TESTED,
    'data-v2-prices-gbr-cpi-annual-growth-labels.csv': TESTED,
    'dataflow-list-oecd-cfe-eds-excerpt.xml': TESTED,
    'structure-v1-kei-referencepartial-excerpt.xml': TESTED,
    'structure-v1-lfs-ialfs-indic-referencepartial-excerpt.xml': TESTED,
    'structure-v1-lfs-ialfs-indic-references-all-excerpt.xml': TESTED,
    'structure-v1-prices-all-referencepartial-excerpt.xml': TESTED,
    'structure-v1-stes-finmark-referencepartial-excerpt.xml': TESTED,
    'structure-v1-stes-finmark-references-all-excerpt.xml': TESTED,
  },
  eurostat: {
    'data-nama-10-gdp-de-since-2030-empty.json': TESTED,
    'data-sts-inpr-m-ie-confidential.json': TESTED,
    'data-une-rt-m-de-xx-since-2024-01.json': TESTED,
  },
  imf: {
    'sdmx3-availability-il-jpn-frequency.json': never('SDMX availability (which frequencies exist); get_series reads the data endpoint and DataMapper'),
    'sdmx3-data-il-jpn-rgv-revs-q.xml': TESTED,
  },
  'nasa-power': {
    'daily-point-ag-csv.csv': TESTED,
    'daily-point-t2m-ag-json.json': TESTED,
    'monthly-regional-ag-json-trimmed.json': TESTED,
    'open-meteo-archive-daily-nyc-trimmed.json': TESTED,
  },
  'usgs-water': {
    'nwis-dv-json-two-sites.json': TESTED,
    'nwis-site-rdb-bbox-trimmed.tsv': TESTED,
    'nwis-site-rdb-two-sites.tsv': TESTED,
    'ogcapi-daily-2-features.json': TESTED,
    'ogcapi-daily-items-limit10.json': TESTED,
    'ogcapi-monitoring-locations-2-features.json': TESTED,
  },
  gbif: {
    'error-400-occurrence-search-bad-latitude.txt': TESTED,
    'occurrence-search-country-dk-specieskey-limit2.json': TESTED,
    'occurrence-search-recordedbyid-limit3.json': TESTED,
    'species-match-v1-exact-helianthus-annuus.json': TESTED,
    'species-match-v1-none-aso.json': TESTED,
    'species-match-v2-exact-helianthus-annuus.json': TESTED,
    'species-match-v2-none-calopteryx-fakeus.json': TESTED,
  },
  openaq: {
    'location-1-latest-empty.json': TESTED,
    'location-1011-sensors.json': TESTED,
    'locations-coordinates-radius.json': TESTED,
    'sensor-1820-hours-daily.json': TESTED,
    'sensor-3-measurements-limit5-found-string.json': TESTED,
    'sensor-5.json': TESTED,
  },
};

/**
 * The request that produced each recording marked `never`, as the fake upstream sees it (the path
 * after the source's prefix): what the connector must never send.
 */
const NEVER_REQUESTED: Record<string, (hit: Hit) => boolean> = {
  'europepmc/search-query-cancer-resultType-idlist-json.json': (hit) => hit.query.get('resultType')?.toLowerCase() === 'idlist',
  'unpaywall/v2-search-no-results.json': (hit) => /\/search\/?$/.test(hit.path),
  'exoplanet-archive/system-aliaslookup-bet-pic.json': (hit) => hit.path.includes('/cgi-bin/Lookup'),
  'exoplanet-archive/tap-sync-keplernames-top5-csv.csv': (hit) => /keplernames/i.test(hit.query.get('query') ?? ''),
  'exoplanet-archive/tap-sync-pscomppars-plname-csv-trimmed.csv': (hit) => hit.query.get('format') === 'csv',
  'usgs-earthquakes/count-northridge.json': (hit) => hit.path.endsWith('/count'),
  'usgs-earthquakes/event-detail-ci3144585.json': (hit) => hit.query.has('eventid'),
  'pubchem/pugview-cid-176-record-description.json': (hit) => hit.path.includes('/pug_view/'),
  'chebi/ols4-software-testcase-v1-term-shape-NOT-chebi.json': (hit) => hit.path.includes('/ontologies/'),
  'chebi/soap-retired-getCompleteEntity-27732-caffeine.xml': (hit) => hit.path.includes('/webservices/') || hit.body.includes('getCompleteEntity'),
  'chebi/soap-retired-getLiteEntity-glyphosate.xml': (hit) => hit.path.includes('/webservices/') || hit.body.includes('getLiteEntity'),
  'chebi/soap-retired-getLiteEntity-no-hit-balloon.xml': (hit) => hit.path.includes('/webservices/') || hit.body.includes('getLiteEntity'),
  'imf/sdmx3-availability-il-jpn-frequency.json': (hit) => hit.path.includes('/availability/'),
};

/** The tool calls that run each such source's connector, in its usual and less usual ways. */
const CALLS_OF_SOURCE: Record<string, Array<[tool: string, args: Record<string, unknown>]>> = {
  europepmc: [
    ['get_paper', { id: 'PMC3531190' }],
    ['get_paper', { id: '10.1371/journal.pone.0033693' }],
    ['get_paper', { id: 'PMID:22351513' }],
  ],
  unpaywall: [
    ['get_paper', { id: '10.1371/journal.pone.0033693' }],
    ['get_paper', { id: '10.1007/s40278-023-41815-2' }],
  ],
  'exoplanet-archive': [
    ['search_exoplanets', { host_star: 'TRAPPIST-1' }],
    ['search_exoplanets', { planet_name: 'bet Pic b' }],
    ['search_exoplanets', { discovery_method: 'Transit', max_distance_pc: 50, in_habitable_zone: true }],
  ],
  'usgs-earthquakes': [
    ['search_earthquakes', {}],
    ['search_earthquakes', { min_magnitude: 6.6, start: '1994-01-17', end: '1994-01-18' }],
    ['search_earthquakes', { latitude: 34.2, longitude: -118.5, radius_km: 100, order: 'magnitude' }],
  ],
  pubchem: [
    ['lookup_compound', { query: 'ibuprofen' }],
    ['lookup_compound', { query: 'caffeine' }],
  ],
  chebi: [
    ['lookup_compound', { query: 'ibuprofen' }],
    ['lookup_compound', { query: 'glyphosate' }],
  ],
  imf: [
    ['find_series', { query: 'unemployment rate in Germany', sources: ['imf'] }],
    ['get_series', { series_id: 'imf:LUR?country=DEU' }],
    ['get_series', { series_id: 'imf:IMF.STA/IL/JPN.RGV_REVS.*.Q', start: '2023-01-01', end: '2024-02-01' }],
  ],
};

const tested = Object.entries(RECORDINGS).flatMap(([source, files]) =>
  Object.entries(files).flatMap(([file, status]) => ('tested' in status ? [`${source}/${file}`] : [])),
);
const neverAsked = Object.entries(RECORDINGS).flatMap(([source, files]) =>
  Object.entries(files).flatMap(([file, status]) => ('never' in status ? [{ source, file, reason: status.never }] : [])),
);

describe('the status of every real recording of every connector', () => {
  for (const [source, files] of Object.entries(RECORDINGS)) {
    describeRecordings(source, () => {
      it('the table lists exactly the files of the folder', () => {
        const folder = recordingsFolder(source);
        const present = existsSync(folder)
          ? readdirSync(folder)
              .filter((file) => file !== 'README.md')
              .sort()
          : [];
        expect(Object.keys(files).sort()).to.deep.equal(present);
      });
    });
  }

  it(`the ${tested.length} recordings marked tested are each read by a test of the run: checked once the whole run is over`, () => {
    const folder = process.env.TEST_ANSWERS_DIR;
    if (!folder) throw new Error('TEST_ANSWERS_DIR is not set: run mocha with .mocharc.json, which loads test/answers.fixtures.ts');
    requestRecordingsCheck(folder, tested);
  });

  it('the check names the recordings no test read, and nothing when every one was read', () => {
    const read = new Set(['crossref/a.json', 'crossref/b.json']);
    expect(unreadRecordings(['crossref/a.json', 'crossref/c.json'], read)).to.deep.equal(['crossref/c.json']);
    expect(unreadRecordings(['crossref/a.json'], read)).to.equal(undefined);
  });

  it('each recording marked never says how its request looks', () => {
    expect(neverAsked.map(({ source, file }) => `${source}/${file}`).sort()).to.deep.equal(Object.keys(NEVER_REQUESTED).sort());
  });
});

const neverBySource = new Map<string, typeof neverAsked>();
for (const entry of neverAsked) neverBySource.set(entry.source, [...(neverBySource.get(entry.source) ?? []), entry]);

describeOnEachEngine('recordings of requests the connectors never send', (engine) => {
  // Every source of the project under its own prefix of one fake upstream, so that nothing reaches the network.
  const allSources = Object.keys(manifestSources);
  const harness = sourcesHarness(engine, allSources, {
    ...KEYS,
    SOURCE_OPENALEX_KEY: 'test-key',
    SOURCE_MATERIALS_PROJECT_KEY: 'test-key',
    SOURCE_OPENAQ_KEY: 'test-key',
    SOURCE_EUROPEANA_KEY: 'test-key',
    CONTACT_EMAIL: 'ops@example.org',
  });
  const ibuprofenProperties =
    '/pug/compound/cid/3672/property/Title,IUPACName,MolecularFormula,MolecularWeight,SMILES,ConnectivitySMILES,InChI,InChIKey,XLogP,HBondDonorCount,HBondAcceptorCount,TPSA/JSON';

  for (const [source, files] of neverBySource) {
    const calls = CALLS_OF_SOURCE[source]!;
    const tools = [...new Set(calls.map(([tool]) => tool))].join(', ');
    it(`${source}: ${files.map(({ file }) => file).join(', ')}: never asked by the connector (no request of ${tools} is one of them)`, async function () {
      this.timeout(60_000);
      // The usual answers where the tests have them, so that the tools go past their first request.
      serveSearches(harness as unknown as StatisticsHarness);
      serveData(harness as unknown as StatisticsHarness);
      harness.on('pubchem', '/pug/compound/name/cids/JSON', own('pubchem', 'hand-made-cids-name-ibuprofen.json'));
      harness.on('pubchem', ibuprofenProperties, own('pubchem', 'hand-made-properties-2025-cid-3672.json'));
      harness.on('pubchem', '/pug/compound/cid/3672/synonyms/JSON', own('pubchem', 'hand-made-synonyms-cid-3672.json'));
      harness.on('chebi', '/compound/CHEBI:5855/', own('chebi', 'hand-made-compound-CHEBI-5855-ibuprofen.json'));
      for (const [tool, args] of calls) {
        const { answer } = await harness.charged(tool, args);
        expect(answer.status, `${tool} ${JSON.stringify(args)}: ${answer.text}`).to.not.equal(400);
      }
      const prefix = `/${source}`;
      const asked = harness.fake.hits.filter((hit) => hit.path.startsWith(`${prefix}/`)).map((hit) => ({ ...hit, path: hit.path.slice(prefix.length) }));
      expect(asked.length, `requests to ${source}`).to.be.greaterThan(0);
      for (const { file, reason } of files) {
        const matching = asked.filter(NEVER_REQUESTED[`${source}/${file}`]!).map((hit) => `${hit.method} ${hit.path}?${hit.query}`);
        expect(matching, `${file}: ${reason}`).to.deep.equal([]);
      }
    });
  }
});

const json = (source: string, file: string) => parseJsonKeepingBigIntegers(recording(source, file));
/** The value with its undefined properties left out, as its JSON answer would carry it. */
const defined = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describeRecordings('openalex', () => {
  it('a random sample answer has the layout of the search answer the connector reads', () => {
    expect(defined(openalex.parseWorkList(json('openalex', 'works-list-sample-2026.json')))).to.deep.equal([
      {
        nativeId: 'W7152634373',
        url: 'https://openalex.org/W7152634373',
        title: 'Riccardia latifrons (Lindb.) Lindb.',
        doi: '10.3535/jf0-6x9-kpw',
        authors: ['University of Gothenburg'],
        year: 2026,
        publicationDate: '2026-04-01',
        venue: 'DiSSCo',
        publicationType: 'dataset',
        citationCount: 0,
        isOpenAccess: true,
        openAccessUrl: 'https://doi.org/10.3535/jf0-6x9-kpw',
        oaStatus: 'green',
        license: 'public-domain',
        openalexId: 'W7152634373',
        isRetracted: false,
      },
    ]);
  });
});

describeRecordings('crossref', () => {
  it('a works search restricted by select= gives the fields it carries, nothing invented', () => {
    const [paper] = crossref.parseWorkList(json('crossref', 'works-query-title-author-select.json'));
    expect(defined({ ...paper, authors: paper!.authors.slice(0, 3) })).to.deep.equal({
      nativeId: '10.1056/nejmoa2404204',
      url: 'https://doi.org/10.1056/nejmoa2404204',
      title: 'Beta-Blocker Interruption or Continuation after Myocardial Infarction',
      doi: '10.1056/nejmoa2404204',
      authors: ['Johanne Silvain', 'Guillaume Cayla', 'Emile Ferrari'],
      venue: 'New England Journal of Medicine',
      isRetracted: false,
      notices: [],
    });
    expect(paper!.authors).to.have.length(36);
  });
});

describeRecordings('europepmc', () => {
  it('the lite search answer (the default resultType) reads like the core one, with fewer fields', () => {
    const { total, papers } = europepmc.parseSearch(json('europepmc', 'search-query-cancer-lite-json.json'));
    expect([total, papers.length]).to.deep.equal([5059039, 3]);
    expect(defined(papers[2])).to.deep.equal({
      nativeId: 'MED/40437959',
      url: 'https://europepmc.org/article/MED/40437959',
      title: 'Co-Designed Culturally Tailored Cancer Screening Promotion Program With Chinese-Australian: Using a Community Partnership Approach',
      doi: '10.1002/hpja.70059',
      authors: ['Kwok C', 'Xu X'],
      year: 2025,
      publicationDate: '2025-07-01',
      venue: 'Health Promot J Austr',
      pages: 'e70059',
      citationCount: 0,
      isOpenAccess: true,
      openAccessUrl: 'https://europepmc.org/article/PMC/PMC12120539',
      pmid: '40437959',
      pmcid: 'PMC12120539',
    });
  });
});

describeRecordings('doaj', () => {
  it('a keyword search of journals reads like the ISSN and title searches the connector makes', () => {
    const { total, journals } = doaj.parseSearch(json('doaj', 'v2-search-journals-keywords-heritage-trimmed.json'));
    expect(total).to.equal(112);
    expect(defined(journals[1])).to.deep.equal({
      id: '0363f2df5e80496fabf11a8ba5853a58',
      title: 'Revista CPC',
      issns: ['1980-4466'],
      publisher: 'Universidade de São Paulo (USP)',
      country: 'BR',
      hasApc: false,
      licenses: ['CC BY-NC-SA'],
      subjects: ['Museums. Collectors and collecting'],
      homepageUrl: 'http://www.revistas.usp.br/cpc/index',
    });
  });
});

describeRecordings('uniprot', () => {
  it('the minimised BRAF entry: PDB cross-references with method, resolution and chains; no domain features in it', () => {
    const entry = uniprot.parseEntry(json('uniprot', 'entry-P15056-BRAF-minimized.json'))!;
    expect([
      entry.accession,
      entry.entryName,
      entry.reviewed,
      entry.proteinName,
      entry.geneSymbol,
      entry.geneSynonyms,
      entry.taxonId,
      entry.length,
    ]).to.deep.equal(['P15056', 'BRAF_HUMAN', true, 'Serine/threonine-protein kinase B-raf', 'BRAF', ['BRAF1', 'RAFB1'], 9606, 766]);
    expect(entry.domains).to.deep.equal([]);
    expect(entry.pdb.slice(0, 2)).to.deep.equal([
      { pdbId: '1UWH', method: 'X-ray', resolution: '2.95 A', chains: 'A/B=448-723' },
      { pdbId: '1UWJ', method: 'X-ray', resolution: '3.50 A', chains: 'A/B=448-723' },
    ]);
    expect(entry.pdb.map((ref) => ref.pdbId)).to.deep.equal(['1UWH', '1UWJ', '2FB8', '2L05', '3C4C', '3D4Q']);
  });
});

describe('recorded error answers of endpoints the connectors call', () => {
  let fake: FakeUpstream;
  let upstream: UpstreamClient;
  before(async () => {
    fake = await startFakeUpstream();
    const at = { url: fake.url, timeoutMs: 2000 };
    upstream = new UpstreamClient({
      sources: { OPENALEX: { ...at, key: 'test-key' }, CROSSREF: at, OPENFDA: at, USGS_EARTHQUAKES: at, GBIF: at },
      contactEmail: 'ops@example.org',
      cache: new MemoryCache(),
      retry: { baseDelayMs: 1 },
      clock: new FastForwardClock(),
    });
  });
  after(() => fake.close());
  beforeEach(() => fake.reset());

  async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
    try {
      await promise;
    } catch (error) {
      expect(error).to.be.instanceOf(UpstreamError);
      return error as UpstreamError;
    }
    throw new Error('expected the request to fail');
  }
  const served = (source: string, file: string, status: number, contentType = 'application/json') => ({ status, body: recording(source, file), contentType });

  // The wording of the reasons belongs to the upstream layer and its tests; here: which failure, from which source.
  const cases = [
    { source: 'openalex', file: 'error-400-invalid-filter.json', path: '/works', run: () => openalex.searchWorks(upstream, { query: 'x', limit: 1 }) },
    {
      source: 'openalex',
      file: 'error-400-invalid-select.json',
      path: '/works/W1775749144',
      run: () => openalex.getWork(upstream, { kind: 'openalex', value: 'W1775749144' }),
    },
    { source: 'crossref', file: 'error-400-validation-failure.json', path: '/works', run: () => crossref.searchBibliographic(upstream, 'x') },
    { source: 'openfda', file: 'error-400-bad-request-sort-field.json', path: '/drug/label.json', run: () => openfda.searchLabels(upstream, ['verapamil']) },
    {
      source: 'usgs-earthquakes',
      file: 'error-400-bad-starttime.txt',
      path: '/query',
      contentType: 'text/plain',
      run: () => usgs.queryEvents(upstream, { startTime: '2025-01-01T00:00:00', endTime: '2025-01-02T00:00:00', limit: 5, order: 'time' }),
    },
    {
      source: 'gbif',
      file: 'error-400-occurrence-search-bad-latitude.txt',
      path: '/v1/occurrence/search',
      contentType: 'text/plain',
      run: () => gbif.searchOccurrences(upstream, { taxonKey: 5219404, hasCoordinates: true, limit: 5 }),
    },
  ];
  for (const { source, file, path, contentType, run } of cases) {
    describeRecordings(source, () => {
      it(`${file}: a failure of ${source} with HTTP 400, asked once (a 400 is not retried)`, async () => {
        fake.on(path, served(source, file, 400, contentType));
        const error = await failure(run());
        expect([error.source, error.kind, error.status, fake.hitsOn(path).length]).to.deep.equal([source, 'http_error', 400, 1]);
      });
    });
  }

  describeRecordings('crossref', () => {
    it('journal-issn-not-found-404.txt: an ISSN Crossref does not know is no journal, not a failure', async () => {
      fake.on('/journals/0413-6597', served('crossref', 'journal-issn-not-found-404.txt', 404, 'application/json'));
      expect(await crossref.getJournal(upstream, '0413-6597')).to.equal(undefined);
    });
  });
});
