/**
 * Countries for the statistics tools: ISO codes both ways (i18n-iso-countries) and the country a
 * query names ("unemployment in Germany", "UK inflation", "United States GDP").
 */
import countries from 'i18n-iso-countries';
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

countries.registerLocale(english);

export interface Country {
  iso2: string;
  iso3: string;
  name: string;
}

/** The country of an ISO 3166-1 alpha-2 or alpha-3 code, any case; undefined when there is none. */
export function countryOf(code: string): Country | undefined {
  const upper = code.trim().toUpperCase();
  const iso2 = upper.length === 2 ? (countries.isValid(upper) ? upper : undefined) : countries.alpha3ToAlpha2(upper);
  if (!iso2) return undefined;
  return { iso2, iso3: countries.alpha2ToAlpha3(iso2)!, name: countries.getName(iso2, 'en')! };
}

interface NamePattern {
  iso2: string;
  pattern: RegExp;
  length: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every English name and alias, longest first so "Papua New Guinea" wins over "Guinea". Short upper-case aliases (US, UK, USA) match only in upper case: "us" is a word. */
const namePatterns: NamePattern[] = Object.entries(countries.getNames('en', { select: 'all' }))
  .flatMap(([iso2, names]) =>
    names.map((name) => {
      const abbreviation = /^[A-Z.]{2,6}$/.test(name);
      return { iso2, pattern: new RegExp(`(?<![\\w.])${escape(name)}(?![\\w])`, abbreviation ? '' : 'i'), length: name.length };
    }),
  )
  .sort((a, b) => b.length - a.length);

/** The first country the text names, and the text without it (and without a leading "in"/"for"/"of" before it). */
export function findCountry(text: string): { country?: Country; rest: string } {
  for (const { iso2, pattern } of namePatterns) {
    const match = pattern.exec(text);
    if (!match) continue;
    const before = text.slice(0, match.index).replace(/(\b(in|for|of|the)\s*)+$/i, '');
    const rest = `${before} ${text.slice(match.index + match[0].length)}`.replace(/\s+/g, ' ').trim();
    return { country: countryOf(iso2), rest };
  }
  return { rest: text.trim() };
}
