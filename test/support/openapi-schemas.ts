/** Checks a body against a schema of the published generated/openapi.json, so what is served is what is documented. */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import { expect } from 'chai';
import openapi from '../../generated/openapi.json' with { type: 'json' };

const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ?? formatsModule) as FormatsPlugin;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'openapi', components: openapi.components } as never);
const validators = new Map<string, ValidateFunction>();

export function expectMatchesSchema(schemaName: string, body: unknown): void {
  let validate = validators.get(schemaName);
  if (!validate) {
    validate = ajv.getSchema(`openapi#/components/schemas/${schemaName}`);
    if (!validate) throw new Error(`generated/openapi.json has no schema ${schemaName}`);
    validators.set(schemaName, validate);
  }
  expect(validate(body), `${schemaName}: ${JSON.stringify(validate.errors)}`).to.equal(true);
}
