/**
 * What a client generated from the published document gets: openapi-typescript's types compile
 * (with code that calls a tool and reads its answer and errors), and every limit the server enforces
 * is in the document where a generator or a validator reads it (maxItems, maxLength, maximum,
 * pattern, x-constraints), not only in prose. Each limit is taken from the code that enforces it.
 */
import { expect } from 'chai';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { tools } from '../../generated/tools.ts';
import { MAX_LABELS, MAX_LABEL_LENGTH } from '../../src/figures/describe.ts';
import { cidOf } from '../../src/connectors/pubchem.ts';
import { MAX_KEY_NAME_LENGTH } from '../../src/server/account/owner.ts';
import { MAX_KEY_LENGTH } from '../../src/server/idempotency.ts';
import { MAX_DOIS } from '../../src/tools/check-retractions.ts';
import { MAX_REFERENCES } from '../../src/tools/verify-references.ts';

type Json = Record<string, any>;
const schemas = openapi.components.schemas as Record<string, Json>;

/** Type-checks `files` (name → source) in memory with the project's strict settings; the diagnostics as text. */
function typeCheck(files: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  const directories = new Set(Object.keys(files).map((name) => name.slice(0, name.lastIndexOf('/'))));
  host.fileExists = (name) => name in files || ts.sys.fileExists(name);
  host.directoryExists = (name) => directories.has(name) || ts.sys.directoryExists(name);
  host.readFile = (name) => files[name] ?? readFile(name);
  host.getSourceFile = (name, version) => (name in files ? ts.createSourceFile(name, files[name]!, version) : getSourceFile(name, version));
  const program = ts.createProgram(Object.keys(files), options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `${diagnostic.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
}

describe('a client generated from generated/openapi.json (openapi-typescript)', () => {
  it('compiles, with code that calls create_figure and reads its answer, the tool list and an error', async function () {
    this.timeout(60_000);
    const types = astToString(await openapiTS(structuredClone(openapi) as never, { silent: true }));
    const client = `
      import type { components, paths } from './api';
      type Call = paths['/api/v1/create_figure']['post'];
      const body: Call['requestBody'] extends { content: { 'application/json': infer Body } } ? Body : never = {
        description: 'A activates B',
        kind: 'mechanism',
        style: 'nature',
        labels: ['A', 'B'],
      };
      declare const answer: Call['responses'][200]['content']['application/json'];
      const figureId: string | undefined = answer.extra?.figure_id;
      declare const refused: Call['responses'][429]['content']['application/json'];
      const wait: number | undefined = refused.error.retry_after_s;
      declare const list: paths['/api/v1']['get']['responses'][200]['content']['application/json'];
      const names: string[] = list.tools.map((tool) => tool.name);
      declare const key: components['schemas']['CreatedAccountKey'];
      const secret: string = key.key;
      export { body, figureId, wait, names, secret };
    `;
    expect(typeCheck({ '/client/api.ts': types, '/client/client.ts': client })).to.deep.equal([]);
  });
});

describe('every limit the server enforces is in the published schema', () => {
  it("each tool's `limits` of tools.yaml is a keyword of its input schema", () => {
    for (const tool of Object.values(tools)) {
      const numbers = new Set<number>();
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) node.forEach(walk);
        else if (node && typeof node === 'object') {
          for (const [keyword, value] of Object.entries(node)) {
            if (['maxItems', 'maxLength', 'maximum', 'minItems', 'minLength', 'minimum'].includes(keyword) && typeof value === 'number') numbers.add(value);
            else walk(value);
          }
        }
      };
      walk(tool.inputSchema);
      for (const [name, limit] of Object.entries(tool.limits as Record<string, number>)) {
        expect(numbers.has(limit), `${tool.name} limits.${name} = ${limit}`).to.equal(true);
      }
    }
  });

  it('the limits of spec part 8 and of the account endpoints, as the code enforces them', () => {
    const labels = schemas.CreateFigureArgs!.properties.labels;
    expect([labels.maxItems, labels.items.maxLength]).to.deep.equal([MAX_LABELS, MAX_LABEL_LENGTH]);
    expect(schemas.VerifyReferencesArgs!.properties.references.oneOf[1].maxItems).to.equal(MAX_REFERENCES);
    expect(schemas.CheckRetractionsArgs!.properties.dois.maxItems).to.equal(MAX_DOIS);
    expect(schemas.GetAirQualityArgs!.properties.radius_km.maximum).to.equal(25);
    expect(schemas.QueryGaiaArgs!.properties.radius_deg.maximum).to.equal(1);
    expect(schemas.GetWeatherHistoryArgs!['x-constraints']).to.deep.include({
      rule: 'max_days',
      fields: ['start', 'end'],
      max: 2000,
      when: { aggregate: 'daily' },
    });
    // The server checks the constraints it publishes: the same list.
    expect(schemas.GetWeatherHistoryArgs!['x-constraints']).to.deep.equal(tools.get_weather_history.constraints);
    expect(schemas.GetWeatherHistoryArgs!.properties.start.pattern).to.equal('^(198[1-9]|199\\d|[2-9]\\d{3})-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$');
    expect(
      schemas.CreatedAccountKey && openapi.paths['/api/v1/account/keys'].post.requestBody.content['application/json'].schema.properties.name.maxLength,
    ).to.equal(MAX_KEY_NAME_LENGTH);
    expect(openapi.components.parameters.IdempotencyKey.schema.maxLength).to.equal(MAX_KEY_LENGTH);
  });

  it("lookup_compound's pattern admits exactly the digit queries the connector takes for CIDs", () => {
    const pattern = new RegExp(schemas.LookupCompoundArgs!.properties.query.pattern, 'u');
    for (const query of ['1', '2244', ' 0042 ', '999999999999999', '0', '000', '1000000000000000', '999999999999999999999', 'aspirin', 'CC(=O)O', '50-78-2']) {
      const digitsAlone = /^\s*\d+\s*$/.test(query);
      expect([query, pattern.test(query)]).to.deep.equal([query, !digitsAlone || cidOf(query) !== undefined]);
    }
  });
});
