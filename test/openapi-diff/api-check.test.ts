import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generate, generateClients } from '../../codegen/generate.ts';
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
    const code = runApiCheck(argv, { out: (text) => out.push(text), err: (text) => err.push(text) }, {});
    return { code, out: out.join('\n'), err: [...codegenErr, ...err].join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/** Removes the `skip`-th optional argument (one that no constraint names) of any tool; returns the tool and the argument. */
function removeAnArgument(manifestText: string, skip = 0): { text: string; tool: string; argument: string } {
  const document = parseDocument(manifestText);
  const tools = document.get('tools');
  if (!isSeq(tools)) throw new Error('tools.yaml has no tools list');
  let seen = 0;
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
      if (JSON.stringify(input.toJSON()).split(`"${argument}"`).length > 2) continue; // named elsewhere (default_from)
      if (seen++ < skip) continue;
      properties.delete(argument);
      return { text: document.toString(), tool: String(tool.get('name')), argument };
    }
  }
  throw new Error('no tool has an optional argument to remove');
}

const propertyPath = (tool: string, argument: string) =>
  `$.paths['/api/v1/${tool}'].post.requestBody.content['application/json'].schema.properties.${argument}`;

function acknowledgement(tool: string, argument: string, reason = 'no longer supported (test)'): string {
  return [
    '  - rule: request-property-removed-from-closed-schema',
    `    operation: POST /api/v1/${tool}`,
    `    path: "${propertyPath(tool, argument)}"`,
    `    reason: ${reason}`,
    '',
  ].join('\n');
}

describe('npm run api:check (the CI gate) in temporary git repositories', () => {
  let template: string;
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] })
      .toString()
      .trim();

  function writeGenerated(manifestText: string): void {
    writeFileSync(join(repo, 'tools.yaml'), manifestText);
    for (const [name, text] of generate(parseManifest(manifestText, 'tools.yaml'))) writeFileSync(join(repo, 'generated', name), text);
  }

  /** Commits a removed argument with the given api-changes.yaml text; returns what was removed. */
  function commitRemoval(acknowledgements: (tool: string, argument: string) => string, skip = 0): { tool: string; argument: string } {
    const removed = removeAnArgument(readFileSync(join(repo, 'tools.yaml'), 'utf8'), skip);
    writeGenerated(removed.text);
    writeFileSync(join(repo, 'api-changes.yaml'), acknowledgements(removed.tool, removed.argument));
    git('commit', '--quiet', '-am', `remove ${removed.argument} from ${removed.tool}`);
    return removed;
  }

  function commitUnrelated(): void {
    writeFileSync(join(repo, 'notes.txt'), `${Math.random()}\n`);
    git('add', 'notes.txt');
    git('commit', '--quiet', '-m', 'an unrelated commit');
  }

  before(function () {
    // compiling the TypeScript client takes seconds of CPU, more on a busy machine
    this.timeout(120_000);
    // one repository with the project's tools.yaml and generated/ and clients/ made from it here (the working tree may be mid-edit)
    template = mkdtempSync(join(tmpdir(), 'api-check-'));
    repo = template;
    mkdirSync(join(repo, 'generated'));
    writeGenerated(readFileSync('tools.yaml', 'utf8'));
    for (const [name, text] of generateClients(parseManifest(readFileSync('tools.yaml', 'utf8'), 'tools.yaml'))) {
      mkdirSync(join(repo, 'clients', name, '..'), { recursive: true });
      writeFileSync(join(repo, 'clients', name), text);
    }
    writeFileSync(join(repo, 'api-changes.yaml'), 'acknowledged: []\n');
    git('init', '--quiet', '--initial-branch', 'main');
    git('config', 'user.email', 'ci@example.org');
    git('config', 'user.name', 'CI');
    git('config', 'commit.gpgsign', 'false');
    git('add', '.');
    git('commit', '--quiet', '-m', 'first');
  });

  beforeEach(() => {
    // each test works on its own copy
    repo = mkdtempSync(join(tmpdir(), 'api-check-'));
    cpSync(template, repo, { recursive: true });
  });

  afterEach(() => {
    rmSync(repo, { recursive: true, force: true });
  });

  after(() => {
    rmSync(template, { recursive: true, force: true });
  });

  it('passes on the first commit of main, saying there is nothing to compare', () => {
    const result = check(['--root', repo]);
    expect(result.err).to.equal('');
    expect(result.out.split('\n')).to.have.length(2);
    expect(result.out.split('\n')[0]).to.match(/^codegen --check: \d+ generated files are up to date\.$/);
    expect(result.out.split('\n')[1]).to.equal(
      'api:check: nothing to compare (every first-parent step of main): neither generated/openapi.json nor api-changes.yaml changed; passing.',
    );
    expect(result.code).to.equal(0);
  });

  it('on a branch, compares with the merge base: a break in an earlier commit of the branch fails, and passes once acknowledged there', () => {
    const mainHead = git('rev-parse', 'HEAD');
    git('checkout', '--quiet', '-b', 'feature');
    const { tool, argument } = commitRemoval(() => 'acknowledged: []\n');
    commitUnrelated();

    const failed = check(['--root', repo, '--no-codegen-check']);
    expect(failed.err).to.equal(
      [
        'api:check: FAILED (compared with the merge base with main):',
        `  - breaking change in ${mainHead.slice(0, 12)} -> working tree not acknowledged in api-changes.yaml:`,
        '    rule: request-property-removed-from-closed-schema',
        `    operation: POST /api/v1/${tool}`,
        `    path: "${propertyPath(tool, argument)}"`,
        `    change: property ${argument} removed (the schema rejects unknown properties)`,
        'An intended break is acknowledged by adding, in the same commit or branch, an entry with the rule, operation, path and a reason under `acknowledged:` in api-changes.yaml.',
      ].join('\n'),
    );
    expect(failed.code).to.equal(1);

    writeFileSync(join(repo, 'api-changes.yaml'), `acknowledged:\n${acknowledgement(tool, argument)}`);
    git('commit', '--quiet', '-am', 'acknowledge the removal');
    const passed = check(['--root', repo, '--no-codegen-check']);
    expect(passed.err).to.equal('');
    expect(passed.out.split('\n').at(-1)).to.equal(
      'api:check: passed (compared with the merge base with main): 1 breaking change, each acknowledged in api-changes.yaml.',
    );
    expect(passed.code).to.equal(0);
  });

  it('on main, a breaking change followed by an unrelated commit fails: every first-parent step is checked', () => {
    const { tool, argument } = commitRemoval(() => 'acknowledged: []\n');
    const breakCommit = git('rev-parse', 'HEAD');
    commitUnrelated();

    const failed = check(['--root', repo, '--no-codegen-check']);
    expect(failed.err.split('\n').slice(0, 3)).to.deep.equal([
      'api:check: FAILED (compared with every first-parent step of main):',
      `  - breaking change in ${git('rev-parse', `${breakCommit}^1`).slice(0, 12)} -> ${breakCommit.slice(0, 12)} not acknowledged in api-changes.yaml:`,
      '    rule: request-property-removed-from-closed-schema',
    ]);
    expect(failed.err).to.include(`    operation: POST /api/v1/${tool}\n    path: "${propertyPath(tool, argument)}"`);
    expect(failed.code).to.equal(1);
  });

  it('on main, a break acknowledged in the commit that made it passes, also after later commits', () => {
    commitRemoval((tool, argument) => `acknowledged:\n${acknowledgement(tool, argument)}`);
    commitUnrelated();
    const passed = check(['--root', repo, '--no-codegen-check']);
    expect(passed.err).to.equal('');
    expect(passed.out.split('\n').at(-1)).to.equal(
      'api:check: passed (compared with every first-parent step of main): 1 breaking change, each acknowledged in api-changes.yaml.',
    );
    expect(passed.code).to.equal(0);
  });

  it('a clone without a main branch (detached, as a CI checkout may be) is checked as main', () => {
    commitRemoval(() => 'acknowledged: []\n');
    git('checkout', '--quiet', '--detach');
    git('branch', '--quiet', '-D', 'main');
    const failed = check(['--root', repo, '--no-codegen-check']);
    expect([failed.code, failed.err.split('\n')[0]]).to.deep.equal([1, 'api:check: FAILED (compared with every first-parent step of HEAD):']);
  });

  it('a shallow clone that does not reach checked-since checks the steps it holds, and says so', () => {
    const first = git('rev-parse', 'HEAD');
    commitRemoval((tool, argument) => `checked-since: ${first}\nacknowledged:\n${acknowledgement(tool, argument)}`);
    commitUnrelated();
    commitUnrelated();
    const shallow = mkdtempSync(join(tmpdir(), 'api-check-shallow-'));
    try {
      execFileSync('git', ['clone', '--quiet', '--depth', '2', `file://${repo}`, shallow], { stdio: 'ignore' });
      const result = check(['--root', shallow, '--no-codegen-check']);
      expect(result.out.split('\n').slice(0, 2)).to.deep.equal([
        `api:check: this shallow clone does not reach checked-since ${first}; checking the first-parent steps it holds.`,
        `api:check: this shallow clone ends at ${git('rev-parse', 'HEAD~1').slice(0, 12)}; the step into it is not checked.`,
      ]);
      expect([result.code, result.err]).to.deep.equal([0, '']);
    } finally {
      rmSync(shallow, { recursive: true, force: true });
    }
  });

  it('an old acknowledgement does not approve a later break on the same operation', () => {
    const first = commitRemoval((tool, argument) => `acknowledged:\n${acknowledgement(tool, argument)}`);
    git('checkout', '--quiet', '-b', 'feature');
    const second = commitRemoval(() => readFileSync(join(repo, 'api-changes.yaml'), 'utf8'));
    expect(second.tool).to.not.equal(''); // the entry for `first` is still in the file, unchanged
    const failed = check(['--root', repo, '--no-codegen-check']);
    expect(failed.err).to.include(`    path: "${propertyPath(second.tool, second.argument)}"`);
    expect(failed.err).to.not.include(`path: "${propertyPath(first.tool, first.argument)}"`);
    expect(failed.code).to.equal(1);
  });

  it('a stale acknowledgement (one that matches no change) fails, naming api-changes.yaml and its line', () => {
    git('checkout', '--quiet', '-b', 'feature');
    writeFileSync(join(repo, 'api-changes.yaml'), `# intended breaks\nacknowledged:\n${acknowledgement('search_papers', 'no_such_argument')}`);
    const failed = check(['--root', repo, '--no-codegen-check']);
    expect(failed.err.split('\n')[1]).to.equal(
      `  - api-changes.yaml:3: acknowledgement (rule request-property-removed-from-closed-schema, operation POST /api/v1/search_papers, path ${propertyPath('search_papers', 'no_such_argument')}) ` +
        `matches no change in ${git('rev-parse', 'HEAD').slice(0, 12)} -> working tree; remove it or correct it`,
    );
    expect(failed.code).to.equal(1);

    // and on main, committed in a step of its own
    git('checkout', '--quiet', 'main');
    git('commit', '--quiet', '-am', 'a stale acknowledgement');
    commitUnrelated();
    const onMain = check(['--root', repo, '--no-codegen-check']);
    expect(onMain.err).to.match(/^ {2}- api-changes\.yaml \(at [0-9a-f]{12}\):3: acknowledgement \(rule request-property-removed-from-closed-schema, /m);
    expect(onMain.code).to.equal(1);
  });

  it('an acknowledgement must name the rule, the operation and the path', () => {
    git('checkout', '--quiet', '-b', 'feature');
    writeFileSync(
      join(repo, 'api-changes.yaml'),
      'acknowledged:\n  - rule: request-property-removed-from-closed-schema\n    operation: POST /api/v1/search_papers\n    reason: test\n',
    );
    expect(check(['--root', repo, '--no-codegen-check'])).to.deep.equal({
      code: 2,
      out: '',
      err: 'api:check: api-changes.yaml:2: path is required: the JSON path the gate printed ("at: $.paths…")',
    });
  });

  it('fails when generated/ is stale, before any diff', () => {
    writeFileSync(join(repo, 'generated', 'openapi.json'), '{}\n');
    const result = check(['--root', repo]);
    expect(result.err.split('\n')).to.deep.equal([
      `codegen --check: generated files are not up to date with ${join(repo, 'tools.yaml')}:`,
      `  ${join(repo, 'generated', 'openapi.json')} (differs)`,
      'Run `npm run codegen` and commit the result.',
      'api:check: failed at codegen --check (see above).',
    ]);
    expect(result.code).to.equal(1);
  });

  it('compares with the commit given by --base, and refuses a --base that is not a commit', () => {
    commitRemoval(() => 'acknowledged: []\n');
    expect(check(['--root', repo, '--base', 'HEAD', '--no-codegen-check'])).to.deep.equal({
      code: 0,
      err: '',
      out:
        `OpenAPI diff ${git('rev-parse', 'HEAD').slice(0, 12)}:generated/openapi.json -> generated/openapi.json: no changes\n` +
        'api:check: passed (compared with --base HEAD): no breaking change.',
    });
    expect(check(['--root', repo, '--base', 'HEAD~1', '--no-codegen-check']).code).to.equal(1);
    expect(check(['--root', repo, '--base', 'no-such-ref', '--no-codegen-check'])).to.deep.equal({
      code: 2,
      out: '',
      err: 'api:check: --base no-such-ref is not a commit of this repository.',
    });
  });
});
