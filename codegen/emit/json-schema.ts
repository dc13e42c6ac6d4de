import type { InputProperty, SchemaNode, ToolDefinition } from '../manifest/types.ts';

export type JsonSchema = Record<string, unknown>;

/** Keywords in the order they are written out, so every emitted schema reads the same way. */
const keywordOrder: Array<keyof SchemaNode> = [
  'type',
  'description',
  'const',
  'enum',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'uniqueItems',
  'items',
  'properties',
  'required',
  'additionalProperties',
  'oneOf',
  'default',
];

/**
 * Copies a manifest schema into plain JSON Schema. With `closeObjects`, objects that do not say
 * otherwise get `additionalProperties: false` (record data and figure extras are exact).
 */
export function toJsonSchema(node: SchemaNode, closeObjects: boolean): JsonSchema {
  const out: JsonSchema = {};
  for (const key of keywordOrder) {
    const value = node[key];
    if (value === undefined) continue;
    if (key === 'items') out.items = toJsonSchema(value as SchemaNode, closeObjects);
    else if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, SchemaNode>).map(([name, child]) => [name, toJsonSchema(child, closeObjects)]),
      );
    } else if (key === 'additionalProperties' && typeof value === 'object') {
      out.additionalProperties = toJsonSchema(value as SchemaNode, closeObjects);
    } else if (key === 'oneOf') out.oneOf = (value as SchemaNode[]).map((child) => toJsonSchema(child, closeObjects));
    else out[key] = value;
  }
  if (closeObjects && node.type === 'object' && node.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

function inputPropertySchema(property: InputProperty): JsonSchema {
  const { default_from: defaultFrom, ...schema } = property;
  const out = toJsonSchema(schema, false);
  if (defaultFrom) out['x-default-from'] = defaultFrom;
  return out;
}

/** The JSON Schema of a tool's arguments: unknown arguments are rejected. */
export function inputSchema(tool: ToolDefinition): JsonSchema {
  const schema: JsonSchema = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(Object.entries(tool.input.properties).map(([name, property]) => [name, inputPropertySchema(property)])),
  };
  if (tool.input.required && tool.input.required.length > 0) schema.required = tool.input.required;
  if (tool.input.constraints && tool.input.constraints.length > 0) schema['x-constraints'] = tool.input.constraints;
  return schema;
}
