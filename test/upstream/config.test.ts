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

describe('budget and breaker settings', () => {
  it('reads SOURCE_<ID>_BUDGET_<WINDOW> as a limit in the budget unit or off, and the breaker settings', () => {
    const config = loadConfig({
      SOURCE_OPENALEX_BUDGET_DAY: '25',
      SOURCE_OPENALEX_BUDGET_MINUTE: 'off',
      SOURCE_BLS_BUDGET_HOUR: '0.5',
      UPSTREAM_BREAKER_FAILURES: '4',
      UPSTREAM_BREAKER_PAUSE_MS: '10000',
    });
    expect([config.sources, config.breaker]).to.deep.equal([
      { OPENALEX: { budgets: { day: 25, minute: 'off' } }, BLS: { budgets: { hour: 0.5 } } },
      { failures: 4, pauseMs: 10_000 },
    ]);
    expect(loadConfig({}).breaker).to.deep.equal({ failures: 5, pauseMs: 30_000 });
  });
  it('refuses a budget that is not a positive number or off, naming the variable', () => {
    expect(() => loadConfig({ SOURCE_OPENALEX_BUDGET_DAY: '-1' })).to.throw('SOURCE_OPENALEX_BUDGET_DAY must be a number > 0 or off, got "-1"');
    expect(() => loadConfig({ UPSTREAM_BREAKER_FAILURES: '0' })).to.throw('UPSTREAM_BREAKER_FAILURES must be an integer >= 1, got "0"');
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
    expect(rows.find((row) => row.startsWith('| `pubmed`'))).to.contain('| 3/s, 3 at once (shared: ncbi); 10/s once all its sources have keys |');
  });
});
