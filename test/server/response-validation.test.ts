import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { createResponseValidator, responseValidationFailures } from '../../src/server/response-validation.ts';

type Spec = { components: { schemas: Record<string, { properties?: Record<string, { enum?: string[] }> }> } };

/** The published document as it was when a capability id was missing from a hand-written enum. */
function specWithoutCapability(id: string): object {
  const spec = structuredClone(openapi) as unknown as Spec;
  for (const schema of Object.values(spec.components.schemas)) {
    const values = schema.properties?.id?.enum;
    if (values?.includes('catalogue')) schema.properties!.id!.enum = values.filter((value) => value !== id);
  }
  return spec;
}

async function answer(spec: object, body: unknown, status = 200): Promise<{ status: number; body: unknown }> {
  const app = express();
  app.use(createResponseValidator(spec));
  app.post('/api/v1/list_capabilities', (_request, response) => {
    response.status(status).json(body);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/list_capabilities`, { method: 'POST' });
    return { status: response.status, body: await response.json() };
  } finally {
    server.close();
  }
}

const capability = {
  id: 'research-tools:integer_sequences',
  type: 'capability',
  title: 'Integer sequences',
  source: 'research-tools',
  license: 'CC0-1.0',
  attribution: 'Research Tools API',
  retrievedAt: '2026-11-24T00:00:00.000Z',
  data: { id: 'integer_sequences', title: 'Integer sequences', pack: 'humanities', tools: ['lookup_integer_sequence'], sources: ['oeis'] },
};

describe('answers are checked against generated/openapi.json in tests', () => {
  afterEach(() => {
    responseValidationFailures.splice(0);
  });

  it('an answer with a capability id the published enum does not list becomes a 500 naming the field, and is recorded', async () => {
    const body = { summary: '1 capability.', records: [capability], credits_used: 0, call_id: 'call_1' };
    const valid = await answer(openapi, body);
    const drifted = await answer(specWithoutCapability('integer_sequences'), body);
    if (valid.status !== 200) throw new Error(`the sample answer itself does not match: ${JSON.stringify(valid.body)}`);
    expect(drifted.status).to.equal(500);
    expect((drifted.body as { error: { message: string } }).error.message).to.match(
      /^the answer of POST \/api\/v1\/list_capabilities \(status 200\) does not match generated\/openapi\.json: .*\/records\/0\/data\/id must be equal to one of the allowed values/,
    );
    expect(responseValidationFailures).to.have.length(1);
    expect(responseValidationFailures[0]!.operation).to.equal('POST /api/v1/list_capabilities');
  });

  it('an error answer must have the published error shape', async () => {
    const result = await answer(openapi, { error: { code: 'invalid_input' } }, 400);
    expect(result.status).to.equal(500);
    expect((result.body as { error: { message: string } }).error.message).to.include("must have required property 'message'");
  });
});
