import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { connectorExportIssues, exportedNames } from '../../codegen/manifest/connector-exports.ts';
import { parseManifest } from '../../codegen/manifest/load.ts';
import { ManifestError } from '../../codegen/manifest/issues.ts';

const manifestText = readFileSync('tools.yaml', 'utf8');
const withConnectors = { more: (manifest: Parameters<typeof connectorExportIssues>[0]) => connectorExportIssues(manifest, process.cwd()) };

describe('upstream.calls[].function of tools.yaml against the connector modules', () => {
  it('names only functions the connector modules export', () => {
    expect(() => parseManifest(manifestText, 'tools.yaml', withConnectors)).to.not.throw();
  });

  it('fails codegen on a function the connector does not export, naming tools.yaml and the line', () => {
    const text = manifestText.replace(/\{ ?source: simbad, function: tapQuery ?\}/, '{ source: simbad, function: scriptQuery }');
    const line = text.split('\n').findIndex((row) => row.includes('function: scriptQuery')) + 1;
    let error: unknown;
    try {
      parseManifest(text, 'tools.yaml', withConnectors);
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(ManifestError);
    expect((error as Error).message).to.equal(
      [
        'tools.yaml: 1 problem',
        `  tools.yaml:${line}: tool "lookup_astro_object" tools[27].upstream.calls[0].function: src/connectors/simbad.ts exports no "scriptQuery" ` +
          `(it exports: SOURCE, normaliseIdentifier, objectQuery, objectUrl, parseObject, tapQuery)`,
      ].join('\n'),
    );
  });

  it('reads exported functions, constants, classes and export lists, and nothing else', () => {
    const text = [
      'export async function searchThings() {}',
      'export const LIMIT = 3, other = 4;',
      'export class Client {}',
      'function hidden() {}',
      'const alias = hidden;',
      'export { alias as renamed };',
      'export type Shape = { a: 1 };',
    ].join('\n');
    expect([...exportedNames(text)].sort()).to.deep.equal(['Client', 'LIMIT', 'other', 'renamed', 'searchThings']);
  });
});
