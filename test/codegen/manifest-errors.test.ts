import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parseManifest } from '../../codegen/manifest/load.ts';
import { ManifestError } from '../../codegen/manifest/issues.ts';

const mini = readFileSync(new URL('./fixtures/mini/tools.yaml', import.meta.url), 'utf8');

function errorOf(text: string): ManifestError {
  try {
    parseManifest(text, 'tools.yaml');
  } catch (error) {
    if (error instanceof ManifestError) return error;
    throw error;
  }
  throw new Error('the manifest was accepted');
}

function edit(from: string, to: string): string {
  expect(mini, `fixture contains ${from}`).to.contain(from);
  return mini.replace(from, to);
}

describe('manifest validation names the file, the tool and the field path', () => {
  it('accepts the fixture manifest as it is', () => {
    expect(parseManifest(mini, 'tools.yaml').tools.map((tool) => tool.name)).to.deep.equal(['search_earthquakes', 'list_capabilities']);
  });

  const cases: Array<{ when: string; text: () => string; message: string }> = [
    {
      when: 'a tool names an unknown pack',
      text: () => edit('pack: earth', 'pack: oceans'),
      message: 'tools.yaml:25: tool "search_earthquakes" tools[0].pack: unknown pack "oceans"',
    },
    {
      when: 'a tool calls an unknown source',
      text: () => edit('source: usgs-earthquakes', 'source: usgs-quakes'),
      message: 'tools.yaml:45: tool "search_earthquakes" tools[0].upstream.calls[0].source: unknown source "usgs-quakes"',
    },
    {
      when: 'a credit is negative',
      text: () => edit('credits: 0', 'credits: -1'),
      message: 'tools.yaml:50: tool "list_capabilities" tools[1].credits: must be 0 or more, got -1',
    },
    {
      when: 'a default does not match its own schema',
      text: () => edit('default: 20', 'default: 900'),
      message:
        'tools.yaml:34: tool "search_earthquakes" tools[0].input.properties.limit.default: 900 does not match the field\'s own schema: value must be <= 500',
    },
    {
      when: 'a default is not among the enum',
      text: () => edit('default: time', 'default: depth'),
      message:
        'tools.yaml:33: tool "search_earthquakes" tools[0].input.properties.order.default: "depth" does not match the field\'s own schema: value must be equal to one of the allowed values',
    },
    {
      when: 'two tools have the same name',
      text: () => edit('name: list_capabilities', 'name: search_earthquakes'),
      message: 'tools.yaml:46: tool "search_earthquakes" tools[1]: duplicate tool name "search_earthquakes" (first at tools[0])',
    },
    {
      when: 'a tool takes a name the server keeps for itself',
      text: () => edit('name: list_capabilities', 'name: account'),
      message: 'tools.yaml:46: tool "account" tools[1].name: "account" is reserved: GET /api/v1/account is the server\'s own',
    },
    {
      when: 'a field is unknown',
      text: () => edit('record_type: capability', 'record_type: capability\n    colour: blue'),
      message: 'tools.yaml:46: tool "list_capabilities" tools[1]: unknown field "colour"',
    },
    {
      when: 'a constraint names an argument that does not exist',
      text: () => edit('fields: [latitude, longitude]', 'fields: [latitude, longitud]'),
      message: 'tools.yaml:36: tool "search_earthquakes" tools[0].input.constraints[0].fields: no argument "longitud"',
    },
    {
      when: 'a budget resets a window per minute at midnight',
      text: () => edit('{ per: minute, reset: rolling, limit: 60 }', '{ per: minute, reset: midnight_utc, limit: 60 }'),
      message: 'tools.yaml:20: sources[0].budget.windows[1].reset: midnight_utc resets a window per day, not per minute',
    },
    {
      when: 'a budget declares two windows of one length',
      text: () => edit('{ per: minute, reset: rolling, limit: 60 }', '{ per: day, reset: rolling, limit: 60 }'),
      message: 'tools.yaml:20: sources[0].budget.windows[1].per: a second window per day (one window per length)',
    },
    {
      when: "a budget's spent signal names a window it does not declare",
      text: () => edit('window: day }', 'window: hour }'),
      message: 'tools.yaml:20: sources[0].budget.spent_signal.window: no window per hour',
    },
    {
      when: "a budget's spent signal has a pattern that is not a regular expression",
      text: () => edit('body_pattern: daily', "body_pattern: 'daily('"),
      message:
        'tools.yaml:20: sources[0].budget.spent_signal.body_pattern: is not a regular expression: Invalid regular expression: /daily(/: Unterminated group',
    },
    {
      when: 'a source without an optional key has a limit without a key',
      text: () => edit('limit: 1000 }', 'limit: 1000, limit_without_key: 10 }'),
      message: 'tools.yaml:20: sources[0].budget.windows[0].limit_without_key: only a source whose key is optional has a limit without one (key: none)',
    },
    {
      when: 'a window allows less than one request of the dearest kind',
      text: () => edit('limit: 60 }', 'limit: 0.5 }'),
      message: 'tools.yaml:20: sources[0].budget.windows[1].limit: 0.5 is less than one request of the dearest kind (1)',
    },
    {
      when: 'a cost is finer than a millionth',
      text: () => edit('query: 1 }', 'query: 0.0000001 }'),
      message: 'tools.yaml:20: sources[0].budget.kinds.query: 1e-7 is finer than a millionth of the unit',
    },
    {
      when: 'a budget window has an unknown length',
      text: () => edit('{ per: minute, reset: rolling, limit: 60 }', '{ per: week, reset: rolling, limit: 60 }'),
      message: 'tools.yaml:20: sources[0].budget.windows[1].per: must be equal to one of the allowed values',
    },
  ];

  for (const { when, text, message } of cases) {
    it(`stops when ${when}`, () => {
      const error = errorOf(text());
      expect(
        error.message
          .split('\n')
          .slice(1)
          .map((line) => line.trim()),
      ).to.deep.equal([message]);
    });
  }

  it('reports YAML syntax errors with their line', () => {
    const error = errorOf(edit('credits: 0', 'credits: [0'));
    expect(error.message).to.match(/^tools\.yaml: \d+ problems?\n {2}tools\.yaml:\d+: .*YAML syntax/);
  });
});
