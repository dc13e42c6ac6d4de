import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runDiff } from '../../codegen/openapi-diff/cli.ts';
import { diffSpecs } from '../../codegen/openapi-diff/diff.ts';
import { loadSpec, specFromObject } from '../../codegen/openapi-diff/load.ts';

type Json = Record<string, any>;

function run(argv: string[], cwd = process.cwd()): { code: number; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const code = runDiff(argv, { out: (text) => out.push(text), err: (text) => err.push(text) }, cwd);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe("openapi:diff on the project's own generated/openapi.json", () => {
  const project = JSON.parse(readFileSync('generated/openapi.json', 'utf8')) as Json;
  let folder: string;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'openapi-diff-'));
  });

  after(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('reports nothing against itself and exits 0', () => {
    expect(diffSpecs(loadSpec('generated/openapi.json'), loadSpec('generated/openapi.json'))).to.deep.equal([]);
    expect(run(['generated/openapi.json', 'generated/openapi.json'])).to.deep.equal({
      code: 0,
      out: 'OpenAPI diff generated/openapi.json -> generated/openapi.json: no changes',
      err: '',
    });
  });

  it('reports a removed tool argument as exactly one ERR, and exits 1', () => {
    // the first POST tool route whose argument schema has a property
    const [template, schemaName, argument] = Object.entries(project.paths as Json).flatMap(([path, item]) => {
      const ref = (item as Json).post?.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined;
      const name = ref?.replace('#/components/schemas/', '');
      const first = name ? Object.keys(project.components.schemas[name]?.properties ?? {})[0] : undefined;
      return name && first ? [[path, name, first] as const] : [];
    })[0]!;
    const copy = structuredClone(project);
    const args = copy.components.schemas[schemaName];
    expect(args.additionalProperties).to.equal(false);
    delete args.properties[argument];
    if (Array.isArray(args.required)) args.required = args.required.filter((name: string) => name !== argument);
    const file = join(folder, 'removed-argument.json');
    writeFileSync(file, JSON.stringify(copy));
    const changes = diffSpecs(loadSpec('generated/openapi.json'), loadSpec(file));
    expect(changes).to.deep.equal([
      {
        id: 'request-property-removed-from-closed-schema',
        level: 'ERR',
        operation: `POST ${template}`,
        path: `$.paths['${template}'].post.requestBody.content['application/json'].schema.properties.${argument}`,
        message: `property ${argument} removed (the schema rejects unknown properties)`,
      },
    ]);
    expect(run(['generated/openapi.json', file]).code).to.equal(1);
  });

  it('reports a removed record field as a removed required response property', () => {
    const copy = structuredClone(project);
    const record = copy.components.schemas.CheckRetractionsRecord;
    delete record.properties.license;
    record.required = record.required.filter((name: string) => name !== 'license');
    const changes = diffSpecs(specFromObject(project), specFromObject(copy));
    expect(changes.map((c) => [c.id, c.level, c.operation])).to.deep.equal([['response-required-property-removed', 'ERR', 'POST /api/v1/check_retractions']]);
  });

  it('accepts a git blob <ref>:<path> as a side', () => {
    const file = join(folder, 'head.json');
    writeFileSync(file, execFileSync('git', ['show', 'HEAD:generated/openapi.json']));
    const result = run(['HEAD:generated/openapi.json', file, '--format', 'json']);
    expect(result.code).to.equal(0);
    expect(JSON.parse(result.out).summary).to.deep.equal({ ERR: 0, WARN: 0, INFO: 0 });
  });
});

describe('openapi:diff command line', () => {
  let folder: string;
  const base = {
    openapi: '3.0.3',
    info: { title: 'hand-made', version: '1' },
    paths: {
      '/pets': {
        get: {
          parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', maximum: 100 } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
        },
      },
    },
    components: {
      schemas: { Pet: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, parent: { $ref: '#/components/schemas/Pet' } } } },
    },
  };
  const revision = structuredClone(base) as Json;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'openapi-diff-cli-'));
    revision.paths['/pets'].get.parameters[0].schema.maximum = 50;
    revision.components.schemas.Pet.properties.name = { type: 'string' };
    writeFileSync(join(folder, 'base.json'), JSON.stringify(base));
    writeFileSync(join(folder, 'revision.yaml'), `# YAML, hand-made\n${JSON.stringify(revision, null, 2)}`);
    writeFileSync(join(folder, 'broken.yaml'), 'openapi: 3.1.0\npaths: [\n');
    writeFileSync(join(folder, 'not-openapi.json'), '{"swagger": "2.0"}');
  });

  after(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('follows a cyclic $ref (Pet.parent is a Pet) one level and stops, printing text by default', () => {
    const result = run(['base.json', 'revision.yaml'], folder);
    expect(result).to.deep.equal({
      code: 1,
      err: '',
      out: [
        'OpenAPI diff base.json -> revision.yaml: 3 changes: 1 ERR, 0 WARN, 2 INFO',
        'ERR  request-parameter-max-decreased  GET /pets',
        '     maximum 100 -> 50',
        "     at $.paths['/pets'].get.parameters[query=limit].schema.maximum",
        'INFO response-optional-property-added  GET /pets',
        '     optional property name added',
        "     at $.paths['/pets'].get.responses['200'].content['application/json'].schema.properties.parent.properties.name",
        'INFO response-optional-property-added  GET /pets',
        '     optional property name added',
        "     at $.paths['/pets'].get.responses['200'].content['application/json'].schema.properties.name",
      ].join('\n'),
    });
  });

  it('--fail-on WARN fails on WARN; --fail-on ERR passes with only INFO and WARN', () => {
    const removed = structuredClone(base) as Json;
    removed.paths['/pets'].get.parameters = [];
    writeFileSync(join(folder, 'no-param.json'), JSON.stringify(removed));
    expect(run(['base.json', 'no-param.json', '--fail-on', 'WARN'], folder).code).to.equal(1);
    expect(run(['base.json', 'no-param.json', '--fail-on', 'ERR'], folder).code).to.equal(0);
  });

  it('prints markdown for a pull-request comment', () => {
    const result = run(['base.json', 'revision.yaml', '--format', 'markdown'], folder);
    expect(result.out.split('\n')).to.deep.equal([
      '### OpenAPI changes: `base.json` → `revision.yaml`',
      '',
      '**1 breaking (ERR)**, 0 possibly breaking (WARN), 2 not breaking (INFO).',
      '',
      '| level | rule | operation | change | path |',
      '| --- | --- | --- | --- | --- |',
      "| ERR | `request-parameter-max-decreased` | GET /pets | maximum 100 -> 50 | `$.paths['/pets'].get.parameters[query=limit].schema.maximum` |",
      "| INFO | `response-optional-property-added` | GET /pets | optional property name added | `$.paths['/pets'].get.responses['200'].content['application/json'].schema.properties.parent.properties.name` |",
      "| INFO | `response-optional-property-added` | GET /pets | optional property name added | `$.paths['/pets'].get.responses['200'].content['application/json'].schema.properties.name` |",
    ]);
  });

  it('prints JSON', () => {
    const result = run(['base.json', 'revision.yaml', '--format', 'json'], folder);
    const report = JSON.parse(result.out);
    expect(report.summary).to.deep.equal({ ERR: 1, WARN: 0, INFO: 2 });
    expect(report.changes[0]).to.deep.equal({
      id: 'request-parameter-max-decreased',
      level: 'ERR',
      operation: 'GET /pets',
      path: "$.paths['/pets'].get.parameters[query=limit].schema.maximum",
      message: 'maximum 100 -> 50',
    });
  });

  it('prints GitHub Actions annotations', () => {
    const result = run(['base.json', 'revision.yaml', '--format', 'github'], folder);
    expect(result.out.split('\n')).to.deep.equal([
      "::error file=revision.yaml,title=request-parameter-max-decreased (GET /pets)::maximum 100 -> 50 at $.paths['/pets'].get.parameters[query=limit].schema.maximum",
      "::notice file=revision.yaml,title=response-optional-property-added (GET /pets)::optional property name added at $.paths['/pets'].get.responses['200'].content['application/json'].schema.properties.parent.properties.name",
      "::notice file=revision.yaml,title=response-optional-property-added (GET /pets)::optional property name added at $.paths['/pets'].get.responses['200'].content['application/json'].schema.properties.name",
      'OpenAPI diff base.json -> revision.yaml: 3 changes: 1 ERR, 0 WARN, 2 INFO',
    ]);
  });

  it('exits 2 with a clear message when a file does not parse, is not OpenAPI 3, or a git object is missing', () => {
    const broken = run(['base.json', 'broken.yaml'], folder);
    expect(broken.code).to.equal(2);
    expect(broken.err).to.match(/^openapi:diff: broken\.yaml does not parse as JSON or YAML: /);
    expect(run(['not-openapi.json', 'base.json'], folder)).to.deep.equal({
      code: 2,
      out: '',
      err: 'openapi:diff: not-openapi.json is not an OpenAPI 3.0 or 3.1 document (openapi: null)',
    });
    const missing = run(['HEAD:no/such/file.json', 'generated/openapi.json']);
    expect(missing.code).to.equal(2);
    expect(missing.err).to.match(/^openapi:diff: cannot read HEAD:no\/such\/file\.json from git: fatal: /);
    expect(run(['nothing-here.json', 'base.json'], folder)).to.deep.equal({
      code: 2,
      out: '',
      err: 'openapi:diff: nothing-here.json: no such file (for a git object write <ref>:<path>, for example HEAD~1:generated/openapi.json)',
    });
  });

  it('exits 2 on a wrong option', () => {
    expect(run(['base.json', 'revision.yaml', '--fail-on', 'INFO'], folder).code).to.equal(2);
    expect(run(['base.json'], folder).code).to.equal(2);
  });

  it('resolves a $ref into another file next to the spec', () => {
    const dir = join(folder, 'split');
    rmSync(dir, { recursive: true, force: true });
    const write = (name: string, text: string) => writeFileSync(join(folder, name), text);
    const root = (schemaFile: string) =>
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'split', version: '1' },
        paths: {
          '/a': {
            get: {
              responses: {
                '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `./${schemaFile}#/Thing` } } } },
              },
            },
          },
        },
      });
    write('thing-1.json', JSON.stringify({ Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } }));
    write('thing-2.json', JSON.stringify({ Thing: { type: 'object', properties: { id: { type: 'string' } } } }));
    write('split-1.json', root('thing-1.json'));
    write('split-2.json', root('thing-2.json'));
    const result = run(['split-1.json', 'split-2.json', '--format', 'json'], folder);
    expect(JSON.parse(result.out).changes.map((c: Json) => c.id)).to.deep.equal(['response-property-became-optional']);
  });
});
