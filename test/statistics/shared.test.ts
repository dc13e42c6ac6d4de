import { expect } from 'chai';
import { ApiError } from '../../src/errors.ts';
import { countryOf, findCountry } from '../../src/statistics/countries.ts';
import { wordsOf } from '../../src/statistics/matching.ts';
import { endDate, normalisePeriod, valueOf, withinPeriod } from '../../src/statistics/periods.ts';
import { formatSeriesId, parseSeriesId } from '../../src/statistics/series-id.ts';

describe('statistics: seriesId, countries, periods and values', () => {
  it('reads and writes seriesIds with dimension parts, codes kept exactly', () => {
    expect(parseSeriesId('world-bank:NY.GDP.MKTP.CD?country=DEU')).to.deep.equal({
      source: 'world-bank',
      id: 'NY.GDP.MKTP.CD',
      dimensions: { country: 'DEU' },
    });
    expect(parseSeriesId('imf:IMF.STA/IL/JPN.RGV_REVS.*.Q')).to.deep.equal({ source: 'imf', id: 'IMF.STA/IL/JPN.RGV_REVS.*.Q', dimensions: {} });
    expect(parseSeriesId('oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&TRANSFORMATION=_Z').dimensions).to.deep.equal({ REF_AREA: 'GBR', TRANSFORMATION: '_Z' });
    expect(formatSeriesId('eurostat', 'une_rt_m', { geo: 'EL', sex: undefined, age: 'TOTAL' })).to.equal('eurostat:une_rt_m?geo=EL&age=TOTAL');
  });

  it('refuses a wrong seriesId shape with a 400 naming series_id', () => {
    for (const [text, reason] of [
      ['GDP', 'does not begin with one of'],
      ['fred:', 'has no id after "fred:"'],
      ['eurostat:une_rt_m?geo=DE&geo=FR', 'dimension geo is given twice'],
      ['eurostat:une_rt_m?geo', '"geo" in "eurostat:une_rt_m?geo" is not a <dimension>=<CODE> part'],
    ]) {
      const error = (() => {
        try {
          parseSeriesId(text!);
        } catch (caught) {
          return caught as ApiError;
        }
        throw new Error(`${text} was accepted`);
      })();
      expect([error.code, error.message.startsWith('series_id: '), error.message.includes(reason!)], text).to.deep.equal(['invalid_input', true, true]);
    }
  });

  it('recognises the country a query names, upper-case abbreviations only in upper case', () => {
    const cases: Array<[string, string | undefined, string]> = [
      ['unemployment rate in Germany', 'DEU', 'unemployment rate'],
      ['UK inflation', 'GBR', 'inflation'],
      ['United States GDP', 'USA', 'GDP'],
      ['GDP of the US', 'USA', 'GDP'],
      ['Papua New Guinea population', 'PNG', 'population'],
      ['tell us about oil', undefined, 'tell us about oil'],
    ];
    expect(
      cases.map(([query]) => {
        const found = findCountry(query);
        return [query, found.country?.iso3, found.rest];
      }),
    ).to.deep.equal(cases);
    expect([countryOf('gb'), countryOf('DEU')?.iso2, countryOf('XX')]).to.deep.equal([{ iso2: 'GB', iso3: 'GBR', name: 'United Kingdom' }, 'DE', undefined]);
  });

  it('normalises the periods sources write, with the first day of each', () => {
    expect(['2019', '2019M01', '2019-01', '2019Q3', '2023-Q1', '2024-S2', '2024-02-29'].map(normalisePeriod)).to.deep.equal([
      { period: '2019', date: '2019-01-01' },
      { period: '2019-01', date: '2019-01-01' },
      { period: '2019-01', date: '2019-01-01' },
      { period: '2019-Q3', date: '2019-07-01' },
      { period: '2023-Q1', date: '2023-01-01' },
      { period: '2024-S2', date: '2024-07-01' },
      { period: '2024-02-29', date: '2024-02-29' },
    ]);
    expect([endDate('2024'), endDate('2024-02'), endDate('2023-02'), endDate('2024-03-15')]).to.deep.equal([
      '2024-12-31',
      '2024-02-29',
      '2023-02-28',
      '2024-03-15',
    ]);
    const observations = [
      { period: '2024-03', date: '2024-03-01', value: 3 },
      { period: '2024-01', date: '2024-01-01', value: 1 },
      { period: '2024-02', date: '2024-02-01', value: 2 },
    ];
    expect(withinPeriod(observations, '2024-02', '2024').map((observation) => observation.value)).to.deep.equal([2, 3]);
  });

  it('never turns a missing-value marker or a fill value into a number', () => {
    expect(['.', '-', '', 'NaN', null, undefined, '-999', '-9999', -666666666, '-888888888', '-999999999', 'n/a'].map(valueOf)).to.deep.equal(
      Array(12).fill(undefined),
    );
    expect(['243.164', '0', '-1.5', 4389475622588.97, '1e3', '-998'].map(valueOf)).to.deep.equal([243.164, 0, -1.5, 4389475622588.97, 1000, -998]);
  });

  it('matches words without stop words and plurals', () => {
    expect(wordsOf('Interest rates of the United Kingdom since 2000')).to.deep.equal(['interest', 'rate', 'united', 'kingdom']);
  });
});
