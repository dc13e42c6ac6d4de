import { BUILTIN_SOURCE } from '../generated/types.ts';

/** Licence and attribution of records the service makes itself (capabilities, figures). */
export const builtinRecord = {
  source: BUILTIN_SOURCE,
  license: 'CC0-1.0',
  attribution: 'Research Tools API',
} as const;
