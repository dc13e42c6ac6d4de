import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { specTools, type SpecArgument } from './spec-table.ts';
import { tools } from '../../generated/tools.ts';

type Schema = Record<string, any>;
const openapi = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const schemas: Record<string, Schema> = openapi.components.schemas;
const pascal = (name: string): string =>
  name
    .split('_')
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

function describeArgument(schema: Schema, required: boolean): SpecArgument {
  const out: SpecArgument = { type: schema.type ?? (schema.oneOf ? 'any' : schema.type) };
  if (required) out.required = true;
  if (schema.enum) out.enum = schema.enum;
  if (schema.items?.enum) out.itemsEnum = schema.items.enum;
  if ('default' in schema) out.default = schema.default;
  return out;
}

describe('generated OpenAPI against the spec (parts 4.2 and 8)', () => {
  it('has exactly the 30 tools of the spec, each with a POST and a GET path', () => {
    const toolPaths = Object.keys(openapi.paths).filter(
      (path) => !['/api/v1', '/api/v1/openapi.json'].includes(path) && !/^\/api\/v1\/account(\/|$)/.test(path),
    );
    expect(toolPaths.sort()).to.deep.equal(
      Object.keys(specTools)
        .map((name) => `/api/v1/${name}`)
        .sort(),
    );
    expect(toolPaths).to.have.length(Object.keys(tools).length);
    for (const path of toolPaths) expect(Object.keys(openapi.paths[path]).sort()).to.deep.equal(['get', 'post']);
  });

  for (const [name, tool] of Object.entries(specTools)) {
    describe(name, () => {
      const args = schemas[`${pascal(name)}Args`]!;
      it("has exactly the spec's argument names, types, required flags, enums and defaults", () => {
        const actual = Object.fromEntries(
          Object.entries(args.properties as Record<string, Schema>).map(([argument, schema]) => [
            argument,
            describeArgument(schema, (args.required ?? []).includes(argument)),
          ]),
        );
        expect(actual).to.deep.equal(tool.args);
      });
      it('rejects unknown arguments', () => {
        expect(args.additionalProperties).to.equal(false);
      });
      it(`belongs to pack ${tool.pack} and costs ${tool.credits} credit(s)`, () => {
        const post = openapi.paths[`/api/v1/${name}`].post;
        expect(post.tags).to.deep.equal([tool.pack]);
        expect(post['x-credits']).to.equal(tool.credits);
      });
    });
  }

  describe('limits of part 8', () => {
    it('verify_references accepts at most 50 references in an array', () => {
      const options = schemas.VerifyReferencesArgs!.properties.references.oneOf as Schema[];
      expect(options.find((option) => option.type === 'array')!.maxItems).to.equal(50);
    });
    it('check_retractions accepts at most 100 DOIs', () => {
      expect(schemas.CheckRetractionsArgs!.properties.dois.maxItems).to.equal(100);
    });
    it('get_air_quality radius is at most 25 km, default 25', () => {
      const radius = schemas.GetAirQualityArgs!.properties.radius_km;
      expect([radius.maximum, radius.default]).to.deep.equal([25, 25]);
    });
    it('query_gaia radius is at most 1.0 degree', () => {
      expect(schemas.QueryGaiaArgs!.properties.radius_deg.maximum).to.equal(1);
    });
    it('get_weather_history starts no earlier than 1981-01-01 and spans at most 2,000 daily days', () => {
      const args = schemas.GetWeatherHistoryArgs!;
      const pattern = new RegExp(args.properties.start.pattern);
      expect(['1981-01-01', '2024-02-29'].map((date) => pattern.test(date))).to.deep.equal([true, true]);
      expect(['1980-12-31', '1900-01-01', '81-01-01'].map((date) => pattern.test(date))).to.deep.equal([false, false, false]);
      expect(args['x-constraints']).to.deep.include({ rule: 'max_days', fields: ['start', 'end'], max: 2000, when: { aggregate: 'daily' } });
    });
    it('search_clinical_trials phase is 1 to 4', () => {
      const phase = schemas.SearchClinicalTrialsArgs!.properties.phase;
      expect(phase.enum).to.deep.equal([1, 2, 3, 4]);
    });
    it('create_figure aspect_ratio defaults to 16:9 for graphical_abstract and workflow, otherwise 4:3', () => {
      expect(schemas.CreateFigureArgs!.properties.aspect_ratio['x-default-from']).to.deep.equal({
        field: 'kind',
        map: { graphical_abstract: '16:9', workflow: '16:9' },
        otherwise: '4:3',
      });
    });
    it('search_earthquakes takes latitude and longitude together', () => {
      expect(schemas.SearchEarthquakesArgs!['x-constraints']).to.deep.include({ rule: 'together', fields: ['latitude', 'longitude'] });
    });
  });

  it('documents 401 and 429 on every operation that needs a key, and 406 and 500 on every operation', () => {
    for (const [path, item] of Object.entries(openapi.paths as Record<string, Record<string, { security?: unknown[]; responses: object }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const statuses = Object.keys(operation.responses);
        const keyed = (operation.security ?? []).length > 0;
        expect([`${method} ${path}`, ...['401', '429', '406', '500'].filter((status) => statuses.includes(status))]).to.deep.equal([
          `${method} ${path}`,
          ...(keyed ? ['401', '429'] : []),
          '406',
          '500',
        ]);
      }
    }
  });

  it('answers every error of part 7 on every tool call (and the Idempotency-Key errors), with Retry-After on 429', () => {
    for (const name of Object.keys(specTools)) {
      const responses = openapi.paths[`/api/v1/${name}`].post.responses;
      // 406 on every tool: an Accept the tool cannot answer (only three also answer citations).
      expect(Object.keys(responses).sort()).to.deep.equal(['200', '400', '401', '402', '403', '404', '406', '409', '413', '422', '429', '500', '502', '503']);
    }
    expect(openapi.components.responses.RateLimited.headers).to.have.property('Retry-After');
    expect(openapi.components.schemas.Error.properties.error.properties.code.enum).to.deep.equal([
      'invalid_input',
      'unauthorized',
      'insufficient_credits',
      'pack_disabled',
      'unknown_tool',
      'not_found',
      'forbidden',
      'method_not_allowed',
      'not_acceptable',
      'idempotency_in_progress',
      'payload_too_large',
      'idempotency_key_reused',
      'rate_limited',
      'internal',
      'upstream_error',
      'temporarily_unavailable',
    ]);
  });

  it('accepts a key as Authorization: Bearer or x-api-key', () => {
    expect(openapi.components.securitySchemes).to.deep.equal({
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (`sm_…`) as a bearer token.' },
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key (`sm_…`).' },
    });
    expect(openapi.paths['/api/v1/search_papers'].post.security).to.deep.equal([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
  });
});
