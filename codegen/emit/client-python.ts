/**
 * Emits clients/python/: the standard-library-only package `research_tools` (Python 3.9 or newer).
 * research_tools/_runtime.py is the hand-written runtime (codegen/clients/python/_runtime.py) copied
 * as it is; research_tools/tools.py holds a TypedDict per record and result and the Client class with
 * one method per tool, written from the manifest. The layout is PEP 8's: four spaces, lines of at
 * most 79 characters, docstrings and comments of at most 72, two blank lines between top-level
 * definitions.
 */
import { readFileSync } from 'node:fs';
import type { InputProperty, Manifest, SchemaNode, ToolDefinition } from '../manifest/types.ts';
import { CLIENT_VERSION, describeDefaultFrom, wrapText } from './client-text.ts';
import { GENERATED_NOTICE, dataTypeName, extraTypeName, pascalCase, recordSchemaName, resultSchemaName, toolPath } from './names.ts';
import { describeCost } from './openapi.ts';

const runtimeTemplate = new URL('../clients/python/_runtime.py', import.meta.url);

const banner = `# ${GENERATED_NOTICE}\n`;
const MAX_LINE = 79;
const MAX_TEXT_LINE = 72;

const PYTHON_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** Keyword arguments every method of a kind of tool has besides the tool's own arguments. */
const METHOD_OPTIONS = new Set(['self', 'idempotency_key', 'citation_format', 'wait', 'poll_interval', 'wait_timeout']);

const isIdentifier = (name: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !PYTHON_KEYWORDS.has(name);

/** The parameter name of a tool argument: the argument's own, with `_` after a Python keyword. */
function parameterName(tool: ToolDefinition, name: string): string {
  if (METHOD_OPTIONS.has(name)) throw new Error(`codegen: ${tool.name}'s argument "${name}" has the name of an option of the Python client's methods`);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`codegen: ${tool.name}'s argument "${name}" is not a Python identifier`);
  return PYTHON_KEYWORDS.has(name) ? `${name}_` : name;
}

/** A Python literal of a JSON value. */
function pyLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${JSON.stringify(key)}: ${pyLiteral(item)}`)
    .join(', ')}}`;
}

/** `# text` or `#: text` lines, at most 72 characters long. */
function comment(text: string, indent: string, marker = '#:'): string[] {
  return wrapText(text, MAX_TEXT_LINE - indent.length - marker.length - 1).map((line) => `${indent}${marker} ${line}`);
}

const docText = (text: string): string => text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"');

/** A docstring: the first paragraph is the summary line; later ones are wrapped paragraphs or ready-made lines. */
function docstring(indent: string, summary: string, body: Array<string | string[]> = []): string[] {
  const width = MAX_TEXT_LINE - indent.length;
  const first = wrapText(docText(summary), width - 3);
  if (body.length === 0 && first.length === 1 && first[0]!.length + 6 <= width) return [`${indent}"""${first[0]}"""`];
  const lines = [`${indent}"""${first[0]}`, ...first.slice(1).map((line) => `${indent}${line}`)];
  for (const paragraph of body) {
    lines.push('');
    const paragraphLines = typeof paragraph === 'string' ? wrapText(docText(paragraph), width) : paragraph;
    lines.push(...paragraphLines.map((line) => (line ? `${indent}${line}` : '')));
  }
  lines.push(`${indent}"""`);
  return lines;
}

/** `name: text` of a Google-style Args section, continuation lines indented four more. */
function argumentDoc(name: string, text: string, width: number): string[] {
  const [first, ...rest] = wrapText(`${name}: ${docText(text)}`, width);
  const continued = rest.join(' ');
  return [first!, ...wrapText(continued, width - 4).map((line) => `    ${line}`)];
}

/** A call or definition on one line when it fits, otherwise one item per line with a trailing comma. */
function bracketed(indent: string, open: string, items: string[], close: string): string[] {
  const oneLine = `${indent}${open}${items.join(', ')}${close}`;
  if (oneLine.length <= MAX_LINE) return [oneLine];
  return [`${indent}${open}`, ...items.map((item) => `${indent}    ${item},`), `${indent}${close}`];
}

/** The type definitions of tools.py in order of use: each before anything that names it. */
class Definitions {
  readonly blocks: string[][] = [];
  readonly #names = new Set<string>();

  /** `name`, or `name2`, `name3`… when a definition already has it. */
  claim(name: string): string {
    let unique = name;
    for (let n = 2; this.#names.has(unique); n += 1) unique = `${name}${n}`;
    this.#names.add(unique);
    return unique;
  }

  add(lines: string[]): void {
    this.blocks.push(lines);
  }

  /** A Literal of the values under its own name. */
  literalAlias(name: string, values: Array<string | number | boolean>): string {
    const alias = this.claim(name);
    this.add(bracketed('', `${alias} = Literal[`, values.map(pyLiteral), ']'));
    return alias;
  }

  /** The Python type of a schema; enums and objects become definitions named after `name`. */
  typeOf(schema: SchemaNode, name: string): string {
    if (schema.const !== undefined) return `Literal[${pyLiteral(schema.const)}]`;
    if (schema.enum) return this.literalAlias(name, schema.enum);
    if (schema.oneOf) return `Union[${schema.oneOf.map((option, index) => this.typeOf(option, `${name}${index + 1}`)).join(', ')}]`;
    switch (schema.type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'array':
        return `List[${schema.items ? this.typeOf(schema.items, `${name}Item`) : 'Any'}]`;
      case 'object':
        if (schema.properties && Object.keys(schema.properties).length > 0) return this.typedDict(name, undefined, schema);
        if (typeof schema.additionalProperties === 'object') return `Dict[str, ${this.typeOf(schema.additionalProperties, `${name}Value`)}]`;
        return 'Dict[str, Any]';
      default:
        return 'Any';
    }
  }

  /**
   * A TypedDict of an object schema: one class when its keys are all required or all optional, else
   * a private class of the required keys that the public one extends with the optional keys (Python
   * 3.9 has no NotRequired). Keys that are not identifiers take the functional form.
   */
  typedDict(wanted: string, doc: string | undefined, schema: SchemaNode): string {
    const name = this.claim(wanted);
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties ?? {}).map(([key, child]) => ({
      key,
      child,
      type: this.typeOf(child, `${name}${pascalCase(key.replace(/[^A-Za-z0-9]+/g, '_'))}`),
      required: required.has(key),
    }));
    const mandatory = fields.filter((field) => field.required);
    const optional = fields.filter((field) => !field.required);
    const docLines = doc ? [...docstring('    ', doc), ''] : [];
    const classBody = (part: typeof fields) =>
      part.flatMap((field) => [...(field.child.description ? comment(field.child.description, '    ') : []), `    ${field.key}: ${field.type}`]);
    if (fields.every((field) => isIdentifier(field.key))) {
      if (mandatory.length > 0 && optional.length > 0) {
        const base = this.claim(`_${name}Required`);
        this.add([`class ${base}(TypedDict):`, ...classBody(mandatory)]);
        this.add([...bracketed('', `class ${name}(`, [base, 'total=False'], '):'), ...docLines, ...classBody(optional)]);
      } else {
        const total = optional.length > 0 ? ', total=False' : '';
        const body = fields.length > 0 ? [...docLines, ...classBody(fields)] : docLines.slice(0, -1);
        this.add([`class ${name}(TypedDict${total}):`, ...(body.length > 0 ? body : ['    pass'])]);
      }
      return name;
    }
    const functional = (partName: string, part: typeof fields, total: boolean) => [
      `${partName} = TypedDict(`,
      `    ${JSON.stringify(partName)},`,
      '    {',
      ...part.flatMap((field) => [
        ...(field.child.description ? comment(field.child.description, '        ', '#') : []),
        `        ${JSON.stringify(field.key)}: ${field.type},`,
      ]),
      '    },',
      ...(total ? [] : ['    total=False,']),
      ')',
    ];
    const parts = [
      ...(mandatory.length > 0 ? [{ name: this.claim(`_${name}Required`), fields: mandatory, total: true }] : []),
      ...(optional.length > 0 ? [{ name: this.claim(`_${name}Optional`), fields: optional, total: false }] : []),
    ];
    for (const part of parts) this.add(functional(part.name, part.fields, part.total));
    this.add([
      ...bracketed(
        '',
        `class ${name}(`,
        parts.map((part) => part.name),
        '):',
      ),
      ...(docLines.length > 0 ? docLines.slice(0, -1) : ['    pass']),
    ]);
    return name;
  }
}

interface Parameter {
  name: string;
  wire: string;
  type: string;
  required: boolean;
  doc: string;
}

function parameters(tool: ToolDefinition, definitions: Definitions): Parameter[] {
  const required = new Set(tool.input.required ?? []);
  const all = Object.entries(tool.input.properties).map(([wire, property]: [string, InputProperty]) => {
    const defaultText = property.default_from
      ? describeDefaultFrom(property.default_from, pyLiteral)
      : 'default' in property
        ? `Default: ${pyLiteral(property.default)}.`
        : '';
    const description = property.description ?? '';
    return {
      name: parameterName(tool, wire),
      wire,
      type: definitions.typeOf(property, `${pascalCase(tool.name)}${pascalCase(wire)}`),
      required: required.has(wire),
      doc: [description, saysDefault(description, property) ? '' : defaultText].filter(Boolean).join(' '),
    };
  });
  return [...all.filter((parameter) => parameter.required), ...all.filter((parameter) => !parameter.required)];
}

/** Whether a description already says the argument's default in words ("Results to return, default 10."). */
function saysDefault(description: string, property: InputProperty): boolean {
  const plain = (value: unknown): string => (Array.isArray(value) ? value.map(String).join(', ') : String(value));
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (property.default_from) {
    const values = [...Object.values(property.default_from.map), property.default_from.otherwise].map(plain);
    return /\bdefault\b/i.test(description) && values.every((value) => description.includes(value));
  }
  return 'default' in property && new RegExp(`\\bdefault:?\\s+${escape(plain(property.default))}(?![\\w-])`, 'i').test(description);
}

const IDEMPOTENCY_KEY = 'idempotency_key: Optional[str] = None';

function method(tool: ToolDefinition, definitions: Definitions, hasGetFigure: boolean): string[] {
  const own = parameters(tool, definitions);
  const result = resultSchemaName(tool.name);
  // An overload's defaults are `...`: the implementation's are the ones that count.
  const signature = (options: string[], overload: boolean) => [
    '        self,',
    ...own.filter((p) => p.required).map((p) => `        ${p.name}: ${p.type},`),
    '        *,',
    ...own.filter((p) => !p.required).map((p) => `        ${p.name}: Optional[${p.type}] = ${overload ? '...' : 'None'},`),
    ...options.map((option) => `        ${option},`),
  ];
  const def = (options: string[], returns: string, overload: boolean) => [
    ...(overload ? ['    @overload'] : []),
    `    def ${tool.name}(`,
    ...signature(options, overload),
    `    ) -> ${returns}:${overload ? ' ...' : ''}`,
  ];
  const argumentDocs = [
    ...own.map((p) => argumentDoc(p.name, p.doc || 'See the API guide.', MAX_TEXT_LINE - 12)),
    ...optionDocs(tool).map(([name, text]) => argumentDoc(name, text, MAX_TEXT_LINE - 12)),
  ].flatMap((lines) => lines.map((line) => `    ${line}`));
  const doc = docstring('        ', `${tool.title}.`, [
    tool.description,
    `Cost: ${describeCost(tool)} POST ${toolPath(tool.name)}.`,
    ['Args:', ...argumentDocs],
  ]);
  const body = bracketed(
    '        ',
    'arguments = {',
    own.map((p) => `${JSON.stringify(p.wire)}: ${p.name}`),
    '}',
  );
  // The kind of tool decides the overloads (by what citation_format or wait asks for) and the runtime call.
  let overloads: Array<{ options: string[]; returns: string }> = [];
  let options = [IDEMPOTENCY_KEY];
  let returns = result;
  let runtimeCall = ['self._call_tool(', 'idempotency_key=idempotency_key'];
  if (tool.citation_export) {
    overloads = [
      { options: ['citation_format: None = ...', 'idempotency_key: Optional[str] = ...'], returns: result },
      { options: ['citation_format: CitationFormat', 'idempotency_key: Optional[str] = ...'], returns: 'str' },
    ];
    options = ['citation_format: Optional[CitationFormat] = None', IDEMPOTENCY_KEY];
    returns = `Union[${result}, str]`;
    runtimeCall = [...runtimeCall, 'citation_format=citation_format'];
  } else if (tool.figure_price_credits !== undefined) {
    if (!hasGetFigure) throw new Error(`codegen: the figure tool ${tool.name} needs a get_figure tool to wait with`);
    const waiting = ['poll_interval: Optional[float] = ...', 'wait_timeout: float = ...'];
    overloads = [
      { options: ['idempotency_key: Optional[str] = ...', 'wait: Literal[False] = ...', ...waiting], returns: result },
      { options: ['idempotency_key: Optional[str] = ...', 'wait: Literal[True]', ...waiting], returns: 'Figure' },
    ];
    options = [IDEMPOTENCY_KEY, 'wait: bool = False', 'poll_interval: Optional[float] = None', 'wait_timeout: float = 600.0'];
    returns = `Union[${result}, Figure]`;
    runtimeCall = ['self._call_figure_tool(', 'idempotency_key=idempotency_key', 'wait=wait', 'poll_interval=poll_interval', 'wait_timeout=wait_timeout'];
  }
  const [callee, ...keywords] = runtimeCall;
  return [
    ...overloads.flatMap((overload) => [...def(overload.options, overload.returns, true), '']),
    ...def(options, returns, false),
    ...doc,
    ...body,
    // A typed variable rather than `return <Any>`, so that the package passes mypy --strict.
    ...bracketed('        ', `result: ${returns} = ${callee}`, [JSON.stringify(tool.name), 'arguments', ...keywords], ')'),
    '        return result',
  ];
}

/** The documentation of the keyword arguments a method has besides the tool's own, as [name, text]. */
function optionDocs(tool: ToolDefinition): Array<[string, string]> {
  const docs: Array<[string, string]> = [];
  if (tool.citation_export) {
    docs.push([
      'citation_format',
      '"bibtex", "ris" or "csl" to get the papers as BibTeX, RIS or CSL-JSON text (as the server sends it) instead of the result.',
    ]);
  }
  docs.push(['idempotency_key', 'Sent as Idempotency-Key; every retry of the call sends the same. Default: a new random UUID per call.']);
  if (tool.figure_price_credits !== undefined) {
    docs.push(
      ['wait', 'Poll get_figure until the figure is finished and answer a Figure with its PNG bytes, instead of the first answer.'],
      ['poll_interval', 'Seconds between polls. Default: the poll_after_s the server suggests (about 30).'],
      ['wait_timeout', 'The most seconds to wait between polls in all before raising figure_timeout. Default: 600.'],
    );
  }
  return docs;
}

function toolsModule(manifest: Manifest): string {
  const tools = [...manifest.tools].sort((a, b) => a.name.localeCompare(b.name));
  const definitions = new Definitions();
  for (const name of ['Client', 'Figure', 'CitationFormat', 'RecordFields', 'OptionalRecordFields', 'ResultFields', 'OptionalResultFields'])
    definitions.claim(name);
  for (const tool of tools) {
    const data = definitions.typedDict(dataTypeName(tool.name), `The data of one ${tool.name} record.`, tool.data);
    const extra = tool.extra ? definitions.typedDict(extraTypeName(tool.name), `The extra of a ${tool.name} result.`, tool.extra) : undefined;
    const record = definitions.claim(recordSchemaName(tool.name));
    definitions.add([`class ${record}(RecordFields, OptionalRecordFields):`, ...docstring('    ', `One record of ${tool.name}.`), '', `    data: ${data}`]);
    const bases = ['ResultFields', 'OptionalResultFields'];
    if (extra) {
      const extraField = definitions.claim(`_${resultSchemaName(tool.name)}Extra`);
      definitions.add([`class ${extraField}(TypedDict, total=False):`, `    extra: ${extra}`]);
      bases.push(extraField);
    }
    const result = definitions.claim(resultSchemaName(tool.name));
    definitions.add([
      ...bracketed('', `class ${result}(`, bases, '):'),
      ...docstring('    ', `The result of ${tool.name}.`),
      '',
      `    records: List[${record}]`,
    ]);
  }
  const hasGetFigure = tools.some((tool) => tool.name === 'get_figure');
  const methods = tools.map((tool) => method(tool, definitions, hasGetFigure));
  const client = [
    'class Client(BaseClient):',
    ...docstring('    ', 'The Research Tools API client: one method per tool.', [
      'Client(api_key=None, base_url=None) takes the key from api_key or RESEARCH_TOOLS_API_KEY and the server from base_url or RESEARCH_TOOLS_BASE_URL (see BaseClient for the retry settings). Each call sends an Idempotency-Key that its retries reuse; failures raise ResearchToolsError; credits_remaining holds the balance after each call. Arguments left as None are not sent: the server applies its default.',
    ]),
    ...methods.flatMap((lines) => ['', ...lines]),
  ];
  // the code alone: a docstring or comment may say "Any" or "Union" in words
  const everything = [...definitions.blocks.flat(), ...client]
    .join('\n')
    .replace(/"""[\s\S]*?"""/g, '')
    .replace(/^\s*#.*$/gm, '');
  const typingNames = ['Any', 'Dict', 'List', 'Literal', 'Optional', 'TypedDict', 'Union', 'overload'].filter((name) =>
    new RegExp(`\\b${name}\\b`).test(everything),
  );
  const runtimeNames = ['BaseClient', 'CitationFormat', 'Figure', 'OptionalRecordFields', 'OptionalResultFields', 'RecordFields', 'ResultFields'];
  const head = [
    banner.trimEnd(),
    '# The hand-written part is _runtime.py (codegen/clients/python/).',
    '"""Records, results and the Client: one method per tool."""',
    '',
    'from __future__ import annotations',
    '',
    ...importLines('typing', typingNames),
    '',
    ...importLines(
      '._runtime',
      runtimeNames.filter((name) => new RegExp(`\\b${name}\\b`).test(everything)),
    ),
  ];
  return `${[head, ...definitions.blocks, client].map((block) => block.join('\n')).join('\n\n\n')}\n`;
}

/** `from module import a, b` on one line when it fits, else one name per line. */
function importLines(module: string, names: string[]): string[] {
  const oneLine = `from ${module} import ${names.join(', ')}`;
  if (oneLine.length <= MAX_LINE) return [oneLine];
  return [`from ${module} import (`, ...names.map((name) => `    ${name},`), ')'];
}

function initModule(): string {
  const names = [
    'DEFAULT_BASE_URL',
    'BaseClient',
    'CitationFormat',
    'Client',
    'Figure',
    'InsufficientCreditsError',
    'InvalidInputError',
    'RateLimitedError',
    'ResearchToolsError',
    '__version__',
  ];
  const fromRuntime = names.filter((name) => name !== 'Client');
  return [
    banner.trimEnd(),
    '"""The Research Tools API client, standard library only.',
    '',
    '    from research_tools import Client',
    '',
    '    rt = Client(api_key="sm_...")',
    '    rt.lookup_integer_sequence(query="1, 1, 2, 3, 5")',
    '',
    'The record and result types of each tool are in research_tools.tools.',
    '"""',
    '',
    'from ._runtime import (',
    ...fromRuntime.map((name) => `    ${name},`),
    ')',
    'from .tools import Client',
    '',
    '__all__ = [',
    ...names.map((name) => `    ${JSON.stringify(name)},`),
    ']',
    '',
  ].join('\n');
}

function pyproject(): string {
  return `${banner}# Install: pip install ./clients/python (offline: add --no-build-isolation).

[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "research-tools"
version = "${CLIENT_VERSION}"
description = "Client for the Research Tools API, standard library only"
readme = "README.md"
requires-python = ">=3.9"
dependencies = []
classifiers = [
    "Programming Language :: Python :: 3",
    "Typing :: Typed",
]

[tool.setuptools]
packages = ["research_tools"]

[tool.setuptools.package-data]
research_tools = ["py.typed"]
`;
}

function readme(): string {
  return `<!-- ${GENERATED_NOTICE} -->

# research-tools

The Python client of the Research Tools API, generated from the API's tool manifest: one method per
tool with typed results, retries of 429/503 and network failures with an automatic
\`Idempotency-Key\`, errors as \`ResearchToolsError\`, the balance after each call, figures waited for,
citation export. Python 3.9 or newer, standard library only.

\`\`\`python
from research_tools import Client

rt = Client(api_key="sm_...", base_url="http://localhost:8080")
result = rt.lookup_integer_sequence(query="1, 1, 2, 3, 5")
print(result["summary"], rt.credits_remaining)
\`\`\`

Install it from the repository with \`pip install ./clients/python\` (without network access to a
package index: \`pip install --no-build-isolation ./clients/python\`, which needs setuptools and wheel
installed). The whole guide is docs/clients.md in the repository.
`;
}

/** The files of clients/python/, by path under clients/. */
export function emitPythonClient(manifest: Manifest): Map<string, string> {
  const runtime = readFileSync(runtimeTemplate, 'utf8').replace(/^__version__ = ".*"$/m, `__version__ = "${CLIENT_VERSION}"`);
  const files = new Map<string, string>([
    ['pyproject.toml', pyproject()],
    ['README.md', readme()],
    ['research_tools/__init__.py', initModule()],
    ['research_tools/_runtime.py', `${banner}# The hand-written part: codegen/clients/python/_runtime.py.\n${runtime}`],
    ['research_tools/py.typed', banner],
    ['research_tools/tools.py', toolsModule(manifest)],
  ]);
  return new Map([...files].map(([name, text]) => [`python/${name}`, text]));
}
