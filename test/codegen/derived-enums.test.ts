import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { generate } from '../../codegen/generate.ts';
import { parseManifest } from '../../codegen/manifest/load.ts';

const manifestText = readFileSync('tools.yaml', 'utf8');

function capabilityIdEnum(text: string): string[] {
  const openapi = JSON.parse(generate(parseManifest(text, 'tools.yaml')).get('openapi.json')!) as {
    components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
  };
  const record =
    Object.entries(openapi.components.schemas).find(([name]) => /^ListCapabilities.*Data$/.test(name))?.[1] ??
    Object.values(openapi.components.schemas).find((schema) => schema.properties?.id?.enum?.includes('catalogue'));
  return record!.properties.id!.enum!;
}

describe('enums of pack and capability ids come from the lists at the top of tools.yaml', () => {
  it('a capability added to tools.yaml is in the published enum of list_capabilities without any other edit', () => {
    const manifest = parseManifest(manifestText, 'tools.yaml');
    const text = manifestText.replace('capabilities:\n', 'capabilities:\n  - { id: new_capability, title: A new capability }\n');
    expect(capabilityIdEnum(text)).to.deep.equal(['new_capability', ...manifest.capabilities.map((capability) => capability.id)]);
  });

  it('a hand-written enum that leaves out a capability id fails codegen, naming tools.yaml and the line', () => {
    const manifest = parseManifest(manifestText, 'tools.yaml');
    const ids = manifest.capabilities.map((capability) => capability.id);
    const text = manifestText.replace('          enum_from: capabilities', `          enum: [${ids.slice(0, -1).join(', ')}]`);
    const line = text.split('\n').findIndex((row) => row.startsWith(`          enum: [${ids[0]}`)) + 1;
    expect(() => parseManifest(text, 'tools.yaml')).to.throw(
      `tools.yaml:${line}: tool "list_capabilities" tools[0].data.properties.id.enum: lists ${ids.length - 1} of the ${ids.length} capabilities ids (not ${ids.at(-1)}); write \`enum_from: capabilities\``,
    );
  });

  it('enum_from must name one of the id lists', () => {
    const text = manifestText.replace('          enum_from: capabilities', '          enum_from: colours');
    expect(() => parseManifest(text, 'tools.yaml')).to.throw(
      'tools[0].data.properties.id.enum_from: must be one of packs, capabilities, sources (the id lists of the manifest)',
    );
  });
});

describe("limits a handler enforces are declared once, under the tool's limits in tools.yaml", () => {
  it('{{limits.<name>}} in a description is the declared value', () => {
    const manifest = parseManifest(manifestText, 'tools.yaml');
    const verify = manifest.tools.find((tool) => tool.name === 'verify_references')!;
    expect(verify.limits).to.deep.equal({ references: 50 });
    expect(verify.input.properties.references!.description).to.match(/; at most 50\.$/);
  });

  it('a {{limits.<name>}} the tool does not declare fails codegen, naming the line', () => {
    const text = manifestText.replace('at most {{limits.dois}} DOIs in all.', 'at most {{limits.doi}} DOIs in all.');
    const line = text.split('\n').findIndex((row) => row.includes('{{limits.doi}}')) + 1;
    expect(line).to.be.greaterThan(0);
    expect(() => parseManifest(text, 'tools.yaml')).to.throw(`tools.yaml:${line}: tool "check_retractions"`);
    expect(() => parseManifest(text, 'tools.yaml')).to.throw(
      'input.properties.references.description: {{limits.doi}}: the tool has no limit "doi" under limits',
    );
  });
});
