import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { addressGroup, createRateLimits, FAILED_KEY_WINDOW_SECONDS } from '../../src/server/rate-limits.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { call, documentationAddress, newCaller, startServer, type TestServer } from '../support/server.ts';
import { stubHandlers } from '../support/stub-handlers.ts';

describe("the failed-key limiter's addresses", () => {
  it('counts an IPv4 address by itself, an IPv4-mapped one as its IPv4 address and an IPv6 address by its /64', () => {
    expect(addressGroup('203.0.113.7')).to.equal('203.0.113.7');
    expect(addressGroup('::ffff:203.0.113.7')).to.equal('203.0.113.7');
    expect(addressGroup('2001:db8:1:2:aaaa::1')).to.equal('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:2:bbbb:cccc:dddd:eeee')).to.equal('2001:db8:1:2::/64');
    expect(addressGroup('unknown')).to.equal('unknown');
  });
  it('TRUSTED_PROXIES is a list of addresses, CIDRs and range names; unset means none', () => {
    expect(loadConfig({}).trustedProxies).to.deep.equal([]);
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 192.0.2.1,loopback,2001:db8::/32' }).trustedProxies).to.deep.equal([
      '10.0.0.0/8',
      '192.0.2.1',
      'loopback',
      '2001:db8::/32',
    ]);
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,proxy.example' })).to.throw(
      ConfigError,
      'TRUSTED_PROXIES must list addresses or CIDRs separated by commas, got "proxy.example"',
    );
  });
});

describeOnEachEngine('the failed-key limiter over HTTP', (engine) => {
  const post = (server: TestServer, options: Parameters<typeof call>[2]) =>
    call(server.baseUrl, '/api/v1/search_papers', { method: 'POST', body: { query: 'a' }, ...options });

  describe('behind no trusted proxy (TRUSTED_PROXIES unset)', () => {
    let server: TestServer;
    // Every request of this suite comes from the loopback peer itself: each test has a server of its own (the limiter
    // also blocks in the process's memory) and a clean count in the database, and leaves it clean.
    const forgetLoopback = () => engine.db('rate_limit_addresses').where('key', 'addr:127.0.0.1').delete();
    beforeEach(async () => {
      // The server makes the table of addresses if it is not there yet.
      server = await startServer(engine.db, { handlers: stubHandlers(), env: { TRUSTED_PROXIES: '' } });
      await forgetLoopback();
    });
    afterEach(async () => {
      await server.close();
      await forgetLoopback();
    });

    it('rotating X-Forwarded-For does not help: the peer is limited after 10 failures and no row is made for the forged addresses', async () => {
      const forged = Array.from({ length: 12 }, () => documentationAddress());
      const statuses = [];
      for (const [index, clientAddress] of forged.entries()) statuses.push((await post(server, { key: `sm_guess${index}`, clientAddress })).status);
      expect(statuses).to.deep.equal([...Array(10).fill(401), 429, 429]);
      const forgedRows = await engine
        .db('rate_limit_addresses')
        .whereIn(
          'key',
          forged.map((address) => `addr:${addressGroup(address)}`),
        )
        .count({ n: '*' });
      expect(Number(forgedRows[0]!.n)).to.equal(0);
    });
    it('a valid key from a peer limited by 10 failures still answers 200, while a bad key from that peer stays refused', async () => {
      const guesses = [];
      for (let index = 0; index < 11; index += 1)
        guesses.push((await post(server, { key: `sm_peer_guess${index}`, clientAddress: documentationAddress() })).status);
      expect(guesses, 'the peer is limited').to.deep.equal([...Array(10).fill(401), 429]);
      const caller = await newCaller(engine.db, 5);
      const answer = await post(server, { key: caller.key, clientAddress: documentationAddress() });
      expect(answer.status).to.equal(200);
      expect((await post(server, { key: 'sm_another_guess', clientAddress: documentationAddress() })).status, 'the peer is still limited').to.equal(429);
    });
  });

  describe('behind a trusted proxy', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer(engine.db, { handlers: stubHandlers(), env: { TRUSTED_PROXIES: '127.0.0.1' } });
    });
    after(async () => server.close());

    it('a valid key from an address with 11 recent failures answers 200, while bad keys from it stay limited', async () => {
      const clientAddress = documentationAddress();
      const guesses = [];
      for (let index = 0; index < 11; index += 1) guesses.push((await post(server, { key: `sm_guess${index}`, clientAddress })).status);
      expect(guesses).to.deep.equal([...Array(10).fill(401), 429]);
      const caller = await newCaller(engine.db, 5);
      expect((await post(server, { key: caller.key, clientAddress })).status).to.equal(200);
      expect((await post(server, { key: 'sm_another_guess', clientAddress })).status).to.equal(429);
    });
  });

  describe('the table of addresses', () => {
    it('loses the rows whose window has passed when swept, and keeps the others', async () => {
      const limits = await createRateLimits(engine.db, 60);
      const stale = `addr:sweep-test-${Date.now()}-stale`;
      const fresh = `addr:sweep-test-${Date.now()}-fresh`;
      await engine.db('rate_limit_addresses').insert([
        { key: stale, points: 3, expire: Date.now() - 1000 },
        { key: fresh, points: 3, expire: Date.now() + FAILED_KEY_WINDOW_SECONDS * 1000 },
      ]);
      expect(await limits.sweepExpiredAddresses()).to.be.at.least(1);
      const left = await engine.db('rate_limit_addresses').whereIn('key', [stale, fresh]).pluck('key');
      expect(left).to.deep.equal([fresh]);
      await engine.db('rate_limit_addresses').where('key', fresh).delete();
    });
  });
});
