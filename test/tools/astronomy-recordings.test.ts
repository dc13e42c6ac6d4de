/**
 * The astronomy tools over HTTP on the real upstream recordings: each body is served by a fake
 * upstream at the path the connector asks, and the tool's answer carries the recorded values exactly.
 */
import { expect } from 'chai';
import { describeRecordings, fixture, recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { fakeSourceEnv, nullPaths } from './support.ts';

const votable = (body: string) => ({ body, contentType: 'application/x-votable+xml' });

describeRecordings('simbad', () => {
  describeRecordings('gaia', () => {
    describeOnEachEngine('the astronomy tools on real recordings', (engine) => {
      let fake: FakeUpstream;
      let server: TestServer;
      before(async () => {
        fake = await startFakeUpstream();
        server = await startServer(engine.db, { env: fakeSourceEnv(fake.url) });
      });
      after(async () => {
        await server.close();
        await fake.close();
      });
      beforeEach(() => fake.reset());

      async function tool(name: string, body: unknown) {
        const caller = await newCaller(engine.db, 10);
        const answer = await call(server.baseUrl, `/api/v1/${name}`, { method: 'POST', key: caller.key, body });
        if (answer.status === 200) expect(nullPaths(answer.body)).to.deep.equal([]);
        return answer;
      }

      it("query_gaia reads Gaia's recorded TABLEDATA VOTable: source_id exact strings, brightest first", async () => {
        fake.on('/sync', votable(recording('gaia', 'source-id-query-dr3-2rows.vot.xml')));
        const answer = await tool('query_gaia', { ra: 268.07, dec: 26.51, radius_deg: 0.5 });
        expect(answer.status, answer.text).to.equal(200);
        expect(answer.body.records.map((record: { id: string }) => record.id)).to.deep.equal(['gaia:4583627001381815936', 'gaia:5348723816842275584']);
        expect(answer.body.records[0].data).to.deep.equal({
          source_id: '4583627001381815936',
          ra_deg: 268.0676646661466,
          dec_deg: 26.50748605871529,
          parallax_mas: 2.3034086430210925,
          parallax_error_mas: 0.03333763,
          pm_ra_mas_yr: -8.5440331309214,
          pm_dec_mas_yr: -27.67299135507808,
          g_mag: 7.0120187,
          bp_mag: 9.272621,
          rp_mag: 5.6080775,
          radial_velocity_km_s: -20.302576,
        });
        expect(answer.text).to.include('"source_id":"5348723816842275584"');
      });

      it("query_gaia reads Gaia's recorded JSON cone search, brightest first, the distance column included", async () => {
        fake.on('/sync', json(recording('gaia', 'cone-search-dr3-top50-trimmed-3rows.json')));
        const answer = await tool('query_gaia', { ra: 280, dec: -60, radius_deg: 0.0056 });
        expect(answer.status, answer.text).to.equal(200);
        expect(answer.body.records.map((record: { data: { source_id: string; g_mag: number } }) => [record.data.source_id, record.data.g_mag])).to.deep.equal([
          ['6636090339113063296', 16.610226],
          ['6636090334814214528', 19.761656],
          ['6636090339112400000', 21.066229],
        ]);
        expect(answer.body.records[1].data).to.deep.include({
          source_id: '6636090334814214528',
          ra_deg: 280.0002534562339,
          dec_deg: -60.00259557514462,
          distance_deg: 0.0026043272506261527,
          parallax_mas: 0.05755191318641077,
          parallax_error_mas: 0.353266,
          pm_ra_mas_yr: -0.1550174111492194,
          pm_dec_mas_yr: -6.264602096381666,
        });
      });

      it("lookup_astro_object reads SIMBAD's recorded VOTable (the cone service's, the only real SIMBAD VOTable of the basic columns)", async () => {
        fake.on('/simbad/sim-tap/sync', votable(recording('simbad', 'cone-search-mivot-barnards-star.vot.xml')));
        const answer = await tool('lookup_astro_object', { name: "Barnard's Star c" });
        expect(answer.status, answer.text).to.equal(200);
        const [record] = answer.body.records;
        expect([record.id, record.url]).to.deep.equal([
          "simbad:NAME Barnard's Star c",
          "https://simbad.cds.unistra.fr/simbad/sim-id?Ident=NAME%20Barnard's%20Star%20c",
        ]);
        expect(record.data).to.deep.equal({
          main_id: "NAME Barnard's Star c",
          ra_deg: 269.452076958619,
          dec_deg: 4.69336496657667,
          parallax_mas: 546.9759,
          pm_ra_mas_yr: -801.551,
          pm_dec_mas_yr: 10362.394,
        });
        expect(answer.body.summary).to.equal('"Barnard\'s Star c" is NAME Barnard\'s Star c.');
      });

      it("lookup_astro_object on a hand-made TAP VOTable of the query's own columns: every field filled", async () => {
        fake.on('/simbad/sim-tap/sync', votable(fixture('simbad', 'hand-made-tap-polaris.vot.xml')));
        const answer = await tool('lookup_astro_object', { name: 'Polaris' });
        expect(answer.status, answer.text).to.equal(200);
        expect(answer.body.records[0].data).to.deep.equal({
          main_id: '* alf UMi',
          object_type: 'Classical Cepheid (delta Cep type)',
          object_type_code: 'cC*',
          ra_deg: 37.95456067,
          dec_deg: 89.26410897,
          parallax_mas: 7.54,
          pm_ra_mas_yr: 44.48,
          pm_dec_mas_yr: -11.85,
          radial_velocity_km_s: -16.42,
          spectral_type: 'F7Ib',
          v_magnitude: 1.98,
          identifiers: ['HD 8890', 'HIP 11767', 'NAME Polaris'],
        });
      });

      it('search_exoplanets on the recorded `ps` answer (pl_name and discoverymethod only): 8 planets with the recorded names and methods, charged 1 credit', async () => {
        fake.on('/TAP/sync', json(recording('exoplanet-archive', 'tap-sync-ps-plname-discoverymethod-json-trimmed.json')));
        const answer = await tool('search_exoplanets', { limit: 8 });
        expect(answer.status, answer.text).to.equal(200);
        expect(answer.body.records.map((record: { id: string; data: unknown }) => [record.id, record.data])).to.deep.equal([
          ['exoplanet-archive:Kepler-11 c', { planet_name: 'Kepler-11 c', discovery_method: 'Transit' }],
          ['exoplanet-archive:Kepler-11 f', { planet_name: 'Kepler-11 f', discovery_method: 'Transit' }],
          ['exoplanet-archive:HAT-P-1 b', { planet_name: 'HAT-P-1 b', discovery_method: 'Transit' }],
          ['exoplanet-archive:OGLE-TR-10 b', { planet_name: 'OGLE-TR-10 b', discovery_method: 'Transit' }],
          ['exoplanet-archive:TrES-2 b', { planet_name: 'TrES-2 b', discovery_method: 'Transit' }],
          ['exoplanet-archive:WASP-3 b', { planet_name: 'WASP-3 b', discovery_method: 'Transit' }],
          ['exoplanet-archive:47 UMa b', { planet_name: '47 UMa b', discovery_method: 'Radial Velocity' }],
          ['exoplanet-archive:47 UMa d', { planet_name: '47 UMa d', discovery_method: 'Radial Velocity' }],
        ]);
        expect([answer.body.summary, answer.body.credits_used]).to.deep.equal(['8 confirmed exoplanets.', 1]);
      });
    });
  });
});
