/** Turns manifest schemas into TypeScript type text. */
import type { SchemaNode } from '../manifest/types.ts';

const literal = (value: string | number | boolean): string =>
  typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(value);

export const propertyKey = (name: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name));

function docComment(text: string | undefined, indent: string): string {
  if (!text) return '';
  return `${indent}/** ${text.replace(/\*\//g, '* /').replace(/\s*\n\s*/g, ' ')} */\n`;
}

/** Type text of a schema; object properties outside `required` are optional. */
export function typeOf(schema: SchemaNode, indent = ''): string {
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return schema.enum.map(literal).join(' | ');
  if (schema.oneOf) return schema.oneOf.map((option) => typeOf(option, indent)).join(' | ');
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array': {
      const item = schema.items ? typeOf(schema.items, indent) : 'unknown';
      return /^[A-Za-z]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case 'object':
      return objectType(schema, indent);
    default:
      return 'unknown';
  }
}

function objectType(schema: SchemaNode, indent: string): string {
  const properties = Object.entries(schema.properties ?? {});
  const additional = schema.additionalProperties;
  if (properties.length === 0) {
    return typeof additional === 'object' ? `Record<string, ${typeOf(additional, indent)}>` : 'Record<string, never>';
  }
  return `{\n${objectMembers(schema, `${indent}  `, new Set(schema.required ?? []))}${indent}}`;
}

/** The members of an object type, one per line, each with its description as a doc comment. */
export function objectMembers(schema: SchemaNode, indent: string, present: Set<string>): string {
  return Object.entries(schema.properties ?? {})
    .map(([name, child]) => {
      const optional = present.has(name) ? '' : '?';
      return `${docComment(child.description, indent)}${indent}${propertyKey(name)}${optional}: ${typeOf(child, indent)};\n`;
    })
    .join('');
}
