/**
 * Loaded by .mocharc.json before the tests: every test server validates its answers against
 * generated/openapi.json (NODE_ENV=test), and a test after which an answer did not match fails.
 */
import { responseValidationFailures } from '../src/server/response-validation.ts';

process.env.NODE_ENV ??= 'test';

export const mochaHooks = {
  afterEach(this: Mocha.Context) {
    if (responseValidationFailures.length === 0) return;
    const failures = responseValidationFailures.splice(0);
    throw new Error(
      `${failures.length} answer(s) did not match generated/openapi.json:\n` +
        failures.map((failure) => `  ${failure.operation} (status ${failure.status}): ${failure.problem}`).join('\n'),
    );
  },
};
