/**
 * express-openapi-validator finds a request's operation by compiling the pattern of every path of
 * the document, on every request (its lookupRoute calls path-to-regexp's `pathToRegexp` for each
 * path until one matches): about a tenth of the CPU of a tool call. A pattern depends only on the
 * path and the options, and the validator only runs `exec` on it, so the copy of path-to-regexp the
 * validator loads gets a memo in front of `pathToRegexp`: each pattern is compiled once per process.
 */
import { createRequire } from 'node:module';

type PathToRegexp = (path: string, options?: Record<string, unknown>) => { regexp: RegExp; keys: unknown[] };

let installed = false;

export function compileValidatorRoutePatternsOnce(): void {
  if (installed) return;
  installed = true;
  const require = createRequire(import.meta.url);
  const validatorRequire = createRequire(require.resolve('express-openapi-validator'));
  const pathToRegexpModule = validatorRequire('path-to-regexp') as { pathToRegexp: PathToRegexp };
  const compile = pathToRegexpModule.pathToRegexp;
  // By path, then by the two options the validator passes; a call with any other option is not cached.
  const compiled = new Map<string, Array<ReturnType<PathToRegexp> | undefined>>();
  pathToRegexpModule.pathToRegexp = (path, options = {}) => {
    for (const name in options) if (name !== 'sensitive' && name !== 'strict') return compile(path, options);
    const variant = (options.sensitive ? 2 : 0) + (options.strict ? 1 : 0);
    let variants = compiled.get(path);
    if (!variants) compiled.set(path, (variants = []));
    return (variants[variant] ??= compile(path, options));
  };
}
