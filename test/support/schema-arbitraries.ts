/**
 * fast-check arbitraries from the JSON Schemas of an OpenAPI document: values meant to match a schema,
 * and values it refuses in each way it can (a wrong type, a bound crossed, a pattern missed, a format
 * broken, too few or too many items, an unknown or a missing property). No maintained library does
 * this for fast-check (the one on the registry is a single release on fast-check 1), so it is derived
 * here, keyword by keyword, for the keywords tools.yaml allows.
 *
 * Nothing here filters: a filter whose predicate a generator cannot meet loops for ever. `candidates`
 * are meant to match (a pattern, a length and a format together may miss now and then): check them
 * with `matches` and skip the misses (fc.pre). `invalid` values are checked here, and one that
 * happens to match is replaced by a value of a type the schema does not allow.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import fc, { type Arbitrary } from 'fast-check';

const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ?? formatsModule) as FormatsPlugin;

export type Schema = Record<string, any>;

/** Longest string or array generated where the schema sets no bound: enough to cross every check, small enough to stay fast. */
const FREE_LENGTH = 24;
const FREE_ITEMS = 4;
/** Bounds of numbers where the schema sets none. */
const FREE_NUMBER = 1e6;
const DATES = { min: new Date('1900-01-01T00:00:00.000Z'), max: new Date('2100-12-31T00:00:00.000Z'), noInvalidDate: true };

const text = (minLength = 0, maxLength = FREE_LENGTH): Arbitrary<string> =>
  fc.oneof(fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'grapheme' }));

/** Any JSON value, small. */
const anyJson: Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 });

export class SchemaArbitraries {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false });
  private readonly validators = new Map<Schema, ValidateFunction>();

  /** `document` holds the schemas that `$ref`s point at (`#/components/schemas/…`). */
  constructor(private readonly document: Schema) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, 'document');
  }

  /** Values meant to match `schema`; check each with `matches` (see above). */
  candidates(schema: Schema): Arbitrary<unknown> {
    return this.accepted(schema);
  }

  /** Whether some value breaks `schema` (a schema without a type or rule accepts anything). */
  canBreak(schema: Schema): boolean {
    const resolved = this.resolve(schema);
    return ['type', 'enum', 'const', 'oneOf'].some((keyword) => keyword in resolved);
  }

  /** Values `schema` refuses, each breaking one of its rules (or its type). */
  invalid(schema: Schema): Arbitrary<unknown> {
    if (!this.canBreak(schema)) throw new Error('schema-arbitraries: this schema accepts every value');
    return fc.oneof(...this.violations(schema)).map((value) => (this.matches(schema, value) ? this.surelyInvalid(schema) : value));
  }

  /** A value `schema` refuses whatever else it says: the first of values of every JSON type that it refuses. */
  private surelyInvalid(schema: Schema): unknown {
    return [12_345, 'text', true, null, [], {}, { '!': [] }].find((value) => !this.matches(schema, value));
  }

  /** Whether `value` matches `schema` (whose `$ref`s point into the document). */
  matches(schema: Schema, value: unknown): boolean {
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = this.ajv.compile({ ...this.withDocumentRefs(schema) });
      this.validators.set(schema, validate);
    }
    return validate(value);
  }

  private withDocumentRefs(schema: Schema): Schema {
    return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"document#/')) as Schema;
  }

  private resolve(schema: Schema): Schema {
    let current = schema;
    while (typeof current.$ref === 'string') {
      current = (current.$ref as string)
        .replace(/^#\//, '')
        .split('/')
        .reduce((node: Schema, part) => node[part] as Schema, this.document);
    }
    return current;
  }

  private accepted(given: Schema): Arbitrary<unknown> {
    const schema = this.resolve(given);
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    if (Array.isArray(schema.oneOf)) return fc.oneof(...(schema.oneOf as Schema[]).map((branch) => this.accepted(branch)));
    const types = schema.type === undefined ? [] : [schema.type as string | string[]].flat();
    if (types.length === 0) return anyJson;
    return fc.oneof(...types.map((type) => this.acceptedOfType(type, schema)));
  }

  private acceptedOfType(type: string, schema: Schema): Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? Math.floor(schema.exclusiveMinimum) + 1 : -FREE_NUMBER);
        const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? Math.ceil(schema.exclusiveMaximum) - 1 : FREE_NUMBER);
        return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
      }
      case 'number':
        return fc.double({
          min: schema.minimum ?? schema.exclusiveMinimum ?? -FREE_NUMBER,
          max: schema.maximum ?? schema.exclusiveMaximum ?? FREE_NUMBER,
          minExcluded: schema.minimum === undefined && schema.exclusiveMinimum !== undefined,
          maxExcluded: schema.maximum === undefined && schema.exclusiveMaximum !== undefined,
          noNaN: true,
          noDefaultInfinity: true,
        });
      case 'string':
        return this.acceptedString(schema);
      case 'array': {
        const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? FREE_ITEMS, Math.max(FREE_ITEMS, schema.minItems ?? 0)) };
        const items = schema.items ? this.accepted(schema.items as Schema) : anyJson;
        return schema.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (item) => JSON.stringify(item) }) : fc.array(items, constraints);
      }
      case 'object': {
        const properties = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
        if (properties.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), anyJson, { maxKeys: 3 });
        return fc.record(Object.fromEntries(properties.map(([name, property]) => [name, this.accepted(property)])), {
          requiredKeys: (schema.required ?? []) as string[],
        });
      }
      default:
        throw new Error(`schema-arbitraries: no values for type ${type}`);
    }
  }

  private acceptedString(schema: Schema): Arbitrary<string> {
    // A pattern says more than a format (tools.yaml's dates carry one: from 1981, say): it comes first.
    if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern as string, 'u'));
    if (schema.format === 'date') return fc.date(DATES).map((date) => date.toISOString().slice(0, 10));
    if (schema.format === 'date-time') return fc.date(DATES).map((date) => date.toISOString());
    if (schema.format === 'uri') return fc.webUrl();
    const minLength = schema.minLength ?? 0;
    return text(minLength, Math.min(schema.maxLength ?? FREE_LENGTH, Math.max(FREE_LENGTH, minLength)));
  }

  /** Ways to break `given`: each arbitrary gives values that break one rule (`invalid` replaces those that happen not to). */
  private violations(given: Schema): Array<Arbitrary<unknown>> {
    const schema = this.resolve(given);
    const ways: Array<Arbitrary<unknown>> = [this.wrongType(schema)];
    if (Array.isArray(schema.enum)) ways.push(fc.string({ maxLength: 12 }));
    if ('const' in schema) ways.push(fc.string({ maxLength: 12 }));
    const types = [schema.type].flat();
    if (types.includes('integer')) ways.push(fc.constantFrom(0.5, 1.25, -3.5));
    if (schema.minimum !== undefined) ways.push(fc.constant(schema.minimum - (types.includes('integer') ? 1 : 0.5)));
    if (schema.exclusiveMinimum !== undefined) ways.push(fc.constant(schema.exclusiveMinimum));
    if (schema.maximum !== undefined) ways.push(fc.constant(schema.maximum + (types.includes('integer') ? 1 : 0.5)));
    if (schema.exclusiveMaximum !== undefined) ways.push(fc.constant(schema.exclusiveMaximum));
    if (schema.minLength !== undefined && schema.minLength > 0) ways.push(fc.constant('x'.repeat(schema.minLength - 1)));
    if (schema.maxLength !== undefined) ways.push(fc.constant('x'.repeat(schema.maxLength + 1)));
    // Strings of every kind of character (controls included) and of digits and spaces alone: most patterns refuse some of them.
    if (typeof schema.pattern === 'string')
      ways.push(
        fc.oneof(
          text(1),
          fc.string({ minLength: 1, maxLength: FREE_LENGTH, unit: 'binary-ascii' }),
          fc.string({ minLength: 1, maxLength: 20, unit: fc.constantFrom('0', '9', ' ', '\t') }),
        ),
      );
    if (schema.format === 'date' || schema.format === 'date-time') ways.push(fc.constantFrom('2023-02-30', '20230101', 'yesterday', '2023-13-01'));
    if (schema.items) {
      const item = schema.items as Schema;
      ways.push(fc.array(this.invalid(item), { minLength: 1, maxLength: 2 }));
      if (schema.minItems !== undefined && schema.minItems > 0) ways.push(fc.array(this.accepted(item), { minLength: 0, maxLength: schema.minItems - 1 }));
      if (schema.maxItems !== undefined) ways.push(fc.array(this.accepted(item), { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 1 }));
      if (schema.uniqueItems) ways.push(this.accepted(item).map((value) => [value, value]));
    }
    if (Array.isArray(schema.oneOf)) ways.push(fc.oneof(fc.boolean(), fc.constant(null), fc.integer()));
    if (types.includes('object') && schema.properties) ways.push(...this.objectViolations(schema));
    return ways;
  }

  private objectViolations(schema: Schema): Array<Arbitrary<unknown>> {
    const base = this.accepted(schema) as Arbitrary<Record<string, unknown>>;
    const ways: Array<Arbitrary<unknown>> = [];
    for (const name of (schema.required ?? []) as string[]) {
      ways.push(
        base.map((value) => {
          const { [name]: _left, ...rest } = value;
          return rest;
        }),
      );
    }
    if (schema.additionalProperties === false) {
      // A name no property has: properties are lower-case, so an upper-case letter makes it unknown.
      const unknownName = fc.stringMatching(/^[a-z_]{1,12}$/).map((name) => `X${name}`);
      ways.push(fc.tuple(base, unknownName, anyJson).map(([value, name, extra]) => ({ ...value, [name]: extra })));
    }
    for (const [name, property] of Object.entries(schema.properties as Record<string, Schema>)) {
      if (this.canBreak(property)) ways.push(fc.tuple(base, this.invalid(property)).map(([value, wrong]) => ({ ...value, [name]: wrong })));
    }
    return ways;
  }

  /** A value of a JSON type the schema does not allow. */
  private wrongType(schema: Schema): Arbitrary<unknown> {
    const allowed = new Set([schema.type].flat());
    const others: Array<[string, Arbitrary<unknown>]> = [
      ['string', fc.string({ maxLength: 8 })],
      ['number', fc.double({ noNaN: true, noDefaultInfinity: true })],
      ['boolean', fc.boolean()],
      ['null', fc.constant(null)],
      ['array', fc.array(fc.integer(), { maxLength: 2 })],
      ['object', fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 })],
    ];
    const wrong = others.filter(([type]) => !allowed.has(type) && !(type === 'number' && allowed.has('integer')));
    return fc.oneof(...wrong.map(([, arbitrary]) => arbitrary));
  }
}
