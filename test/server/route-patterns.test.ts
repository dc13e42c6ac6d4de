import { createRequire } from 'node:module';
import { expect } from 'chai';
import { compileValidatorRoutePatternsOnce } from '../../src/server/route-patterns.ts';

type PathToRegexp = (path: string, options?: Record<string, unknown>) => { regexp: RegExp; keys: Array<{ name: string }> };

describe("the request validator's route patterns", function () {
  const require = createRequire(import.meta.url);
  const validatorCopy = (): { pathToRegexp: PathToRegexp } =>
    createRequire(require.resolve('express-openapi-validator'))('path-to-regexp') as { pathToRegexp: PathToRegexp };

  it('compiles each path once per set of options and still matches as path-to-regexp does', function () {
    compileValidatorRoutePatternsOnce();
    const { pathToRegexp } = validatorCopy();
    const first = pathToRegexp('/api/v1/account/keys/:key_id', { sensitive: false, strict: false });
    expect(pathToRegexp('/api/v1/account/keys/:key_id', { sensitive: false, strict: false })).to.equal(first);
    expect(pathToRegexp('/api/v1/account/keys/:key_id', { sensitive: true, strict: false })).to.not.equal(first);
    expect(pathToRegexp('/api/v1/account/keys/:key_id', { end: false })).to.not.equal(pathToRegexp('/api/v1/account/keys/:key_id', { end: false }));
    expect(first.keys.map((key) => key.name)).to.deep.equal(['key_id']);
    expect(first.regexp.exec('/api/v1/account/keys/key_123')?.slice(1)).to.deep.equal(['key_123']);
    expect(first.regexp.exec('/api/v1/account/keys')).to.equal(null);
  });
});
