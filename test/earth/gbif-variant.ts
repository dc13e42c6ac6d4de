import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { recording } from '../connectors/recordings.ts';

/** The Denmark recording with its records' licences changed (hand-made variant): one CC BY, one CC0. */
export function openLicensedDenmark(): { results: Array<Record<string, unknown>> } {
  const body = parseJsonKeepingBigIntegers(recording('gbif', 'occurrence-search-country-dk-specieskey-limit2.json')) as {
    results: Array<Record<string, unknown>>;
  };
  body.results[0]!.license = 'http://creativecommons.org/licenses/by/4.0/legalcode';
  body.results[1]!.license = 'https://creativecommons.org/publicdomain/zero/1.0/';
  return body;
}
