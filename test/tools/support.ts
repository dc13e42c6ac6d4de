/** Helpers of the tool tests over HTTP. */

/** Every source of the five tools pointed at the fake upstream. */
export function fakeSourceEnv(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    SOURCE_USGS_EARTHQUAKES_URL: url,
    SOURCE_OEIS_URL: url,
    SOURCE_SIMBAD_URL: url,
    SOURCE_EXOPLANET_ARCHIVE_URL: url,
    SOURCE_GAIA_URL: url,
    ...extra,
  };
}

/** Paths of JSON values that are null: the answer must have none (fields that do not apply are omitted). */
export function nullPaths(value: unknown, path = '$'): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => nullPaths(item, `${path}[${index}]`));
  if (typeof value === 'object') return Object.entries(value as object).flatMap(([key, item]) => nullPaths(item, `${path}.${key}`));
  return [];
}
