import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('upstream settings in the configuration', () => {
  it('reads SOURCE_<ID>_URL, _KEY and _TIMEOUT_MS per source, and REDIS_URL', () => {
    const config = loadConfig({
      SOURCE_WORLD_BANK_URL: 'http://127.0.0.1:9999/',
      SOURCE_FRED_KEY: 'abc',
      SOURCE_GAIA_TIMEOUT_MS: '2500',
      SOURCE_EMPTY_URL: '',
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    expect(config.sources).to.deep.equal({ WORLD_BANK: { url: 'http://127.0.0.1:9999' }, FRED: { key: 'abc' }, GAIA: { timeoutMs: 2500 } });
    expect(config.redisUrl).to.equal('redis://127.0.0.1:6379');
  });
  it('refuses a timeout that is not a positive integer, naming the variable', () => {
    expect(() => loadConfig({ SOURCE_GAIA_TIMEOUT_MS: 'soon' })).to.throw(ConfigError, 'SOURCE_GAIA_TIMEOUT_MS must be an integer >= 1, got "soon"');
  });
  it('without overrides every source keeps its manifest settings and the cache stays in memory', () => {
    const config = loadConfig({});
    expect([config.sources, config.redisUrl]).to.deep.equal([{}, undefined]);
  });
});

describe('the README table of sources', () => {
  it('has one row per manifest source with its licence, key need and variables', async () => {
    const { sourceTable } = await import('../../src/upstream/source-table.ts');
    const rows = sourceTable().trimEnd().split('\n');
    expect(rows).to.have.length(2 + 55);
    expect(rows).to.include(
      '| `fred` FRED (Federal Reserve Bank of St. Louis) | FRED API Terms of Use (some series third-party copyrighted) | **required** | `SOURCE_FRED_URL`, `SOURCE_FRED_KEY` | 2/s, 2 at once | `find_series`, `get_series` |',
    );
    expect(rows.find((row) => row.startsWith('| `pubmed`'))).to.contain('| 3/s, 3 at once (shared: ncbi) |');
  });
});
