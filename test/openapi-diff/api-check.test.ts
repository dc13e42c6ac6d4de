import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generate } from '../../codegen/generate.ts';
import { parseManifest } from '../../codegen/manifest/load.ts';
import { isMap, isSeq, parseDocument, type YAMLMap } from 'yaml';
import { runApiCheck } from '../../codegen/openapi-diff/api-check.ts';

function check(argv: string[]): { code: number; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const codegenErr: string[] = [];
  const { log, error } = console;
  console.log = (text: string) => out.push(text);
  console.error = (text: string) => codegenErr.push(text);
  try {
    const code = runApiCheck(argv, { out: (text) => out.push(text), err: (text) => err.push(text) });
    return { code, out: out.join('\n'), err: [...codegenErr, ...err].join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/** Removes one optional argument of one tool (one that no constraint names); returns the tool and the argument. */
function removeAnArgument(manifestText: string): { text: string; tool: string; argument: string } {
  const document = parseDocument(manifestText);
  const tools = document.get('tools');
  if (!isSeq(tools)) throw new Error('tools.yaml has no tools list');
  for (const item of tools.items) {
    const tool = item as YAMLMap;
    const input = tool.get('input');
    const properties = isMap(input) ? input.get('properties') : undefined;
    if (!isMap(input) || !isMap(properties)) continue;
    const required = JSON.stringify(input.get('required') ?? []);
    const constraints = JSON.stringify(input.get('constraints') ?? []);
    for (const pair of properties.items) {
      const argument = String((pair.key as { value?: unknown }).value ?? pair.key);
      if (required.includes(`"${argument}"`) || constraints.includes(`"${argument}"`)) continue;
      properties.delete(argument);
      return { text: document.toString(), tool: String(tool.get('name')), argument };
    }
  }
  throw new Error('no tool has an optional argument to remove');
}

describe('npm run api:check (the CI gate) in a temporary copy of the repository', () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] }).toString();

  function writeGenerated(manifestText: string): void {
    writeFileSync(join(repo, 'tools.yaml'), manifestText);
    for (const [name, text] of generate(parseManifest(manifestText, 'tools.yaml'))) writeFileSync(join(repo, 'generated', name), text);
  }

  before(() => {
    repo = mkdtempSync(join(tmpdir(), 'api-check-'));
    // the project's tools.yaml, with generated/ made from it here (the working tree may be mid-edit)
    mkdirSync(join(repo, 'generated'));
    writeGenerated(readFileSync('tools.yaml', 'utf8'));
    cpSync('api-changes.yaml', join(repo, 'api-changes.yaml'));
    git('init', '--quiet');
    git('config', 'user.email', 'ci@example.org');
    git('config', 'user.name', 'CI');
    git('config', 'commit.gpgsign', 'false');
    git('add', '.');
    git('commit', '--quiet', '-m', 'first');
  });

  after(() => {
    rmSync(repo, { recursive: true, force: true });
  });

  it('passes on the first commit, saying there is nothing to compare with', () => {
    const result = check(['--root', repo]);
    expect(result.code).to.equal(0);
    expect(result.err).to.equal('');
    expect(result.out.split('\n')).to.have.length(2);
    expect(result.out.split('\n')[0]).to.match(/^codegen --check: \d+ generated files are up to date\.$/);
    expect(result.out.split('\n')[1]).to.equal('api:check: there is no previous commit (HEAD~1) to compare with; no OpenAPI diff, passing.');
  });

  it('fails on a removed tool argument, naming the unacknowledged change, and passes once it is acknowledged', () => {
    const { text, tool, argument } = removeAnArgument(readFileSync(join(repo, 'tools.yaml'), 'utf8'));
    writeGenerated(text);
    git('commit', '--quiet', '-am', `remove ${argument} from ${tool}`);

    const failed = check(['--root', repo]);
    expect(failed.code).to.equal(1);
    expect(failed.err).to.equal([
      'api:check: FAILED: 1 breaking change since HEAD~1 not acknowledged in api-changes.yaml:',
      '  - rule: request-property-removed-from-closed-schema',
      `    operation: POST /api/v1/${tool}`,
      `    at: $.paths['/api/v1/${tool}'].post.requestBody.content['application/json'].schema.properties.${argument}`,
      `    change: property ${argument} removed (the schema rejects unknown properties)`,
      'If the break is intended, add each one under `acknowledged:` in api-changes.yaml with rule, operation and a reason, and commit it.',
    ].join('\n'));

    writeFileSync(join(repo, 'api-changes.yaml'), [
      'acknowledged:',
      '  - rule: request-property-removed-from-closed-schema',
      `    operation: POST /api/v1/${tool}`,
      `    reason: ${argument} is no longer supported (test)`,
      '',
    ].join('\n'));
    git('commit', '--quiet', '--amend', '-am', 'remove open_access_only (acknowledged)');
    const passed = check(['--root', repo]);
    expect(passed.code).to.equal(0);
    expect(passed.err).to.equal('');
    expect(passed.out.split('\n').at(-1)).to.equal('api:check: passed: 1 breaking change since HEAD~1, all acknowledged in api-changes.yaml.');
  });

  it('fails when generated/ is stale, before any diff', () => {
    writeFileSync(join(repo, 'generated', 'openapi.json'), '{}\n');
    try {
      const result = check(['--root', repo]);
      expect(result.code).to.equal(1);
      expect(result.err.split('\n')).to.deep.equal([
        `codegen --check: generated files are not up to date with ${join(repo, 'tools.yaml')}:`,
        `  ${join(repo, 'generated', 'openapi.json')} (differs)`,
        'Run `npm run codegen` and commit the result.',
        'api:check: failed at codegen --check (see above).',
      ]);
    } finally {
      git('checkout', '--quiet', '--', 'generated/openapi.json');
    }
  });

  it('compares with the commit given by --base, and refuses a --base that is not a commit', () => {
    const lines = check(['--root', repo, '--base', 'HEAD', '--no-codegen-check']).out.split('\n');
    expect(lines[0]).to.equal('OpenAPI diff HEAD:generated/openapi.json -> generated/openapi.json: no changes');
    expect(lines[1]).to.equal('api:check: 1 entry of api-changes.yaml matches no change since HEAD (kept from earlier changes; remove when you like):');
    expect(lines[2]).to.match(/^ {2}- request-property-removed-from-closed-schema POST \/api\/v1\/\w+$/);
    expect(lines[3]).to.equal('api:check: passed: no breaking change since HEAD.');
    expect(lines).to.have.length(4);
    expect(check(['--root', repo, '--base', 'no-such-ref', '--no-codegen-check'])).to.deep.equal({ code: 2, out: '',
      err: 'api:check: --base no-such-ref is not a commit of this repository.' });
  });

  it('rejects an acknowledgement without a reason', () => {
    writeFileSync(join(repo, 'api-changes.yaml'), 'acknowledged:\n  - rule: request-property-removed-from-closed-schema\n    operation: POST /api/v1/any_tool\n');
    try {
      expect(check(['--root', repo, '--no-codegen-check']).err).to.equal(`api:check: ${join(repo, 'api-changes.yaml')}: acknowledged[0]: a reason is required`);
    } finally {
      git('checkout', '--quiet', '--', 'api-changes.yaml');
    }
  });
});
