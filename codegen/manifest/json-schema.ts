import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS; under Node's ESM loader its default export is the plugin itself.
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ?? formatsModule) as FormatsPlugin;

/** An Ajv for JSON Schema 2020-12 (the dialect of OpenAPI 3.1) with the standard formats. */
export function createSchemaValidator(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
  addFormats(ajv, ['date', 'date-time', 'uri']);
  return ajv;
}
