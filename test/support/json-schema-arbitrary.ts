import type { ValidateFunction } from 'ajv';
import fc from 'fast-check';

export type JsonSchema = { readonly [keyword: string]: unknown };

export interface ArbitraryOptions {
  /** Resolves a `$ref` of the document to the schema it names. */
  readonly resolve: (ref: string) => JsonSchema;
  /** A validator of one string schema, so a generated string meets its format and `not` too. */
  readonly validatorOf: (schema: JsonSchema) => ValidateFunction;
  /** Values a property of this name always takes, whatever its schema (the caller's merchantId). */
  readonly fixed?: Readonly<Record<string, unknown>>;
  /** Real values offered beside generated ones wherever a string schema accepts them (existing ids). */
  readonly known?: readonly string[];
}

/**
 * Keywords that say nothing about which values are valid. Every other keyword must be one this
 * converter generates for, so a schema it cannot honour fails loudly instead of yielding values
 * that the schema refuses or that miss a rule.
 */
const annotationKeywords = new Set(['description', 'example', 'default']);

const handledKeywords: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(['type', 'minLength', 'maxLength', 'pattern', 'format', 'enum', 'const', 'not']),
  integer: new Set(['type', 'minimum', 'maximum', 'enum', 'const']),
  boolean: new Set(['type']),
  null: new Set(['type']),
  object: new Set([
    'type',
    'properties',
    'required',
    'additionalProperties',
    'propertyNames',
    'minProperties',
    'maxProperties',
    'dependentRequired',
  ]),
  array: new Set(['type', 'items', 'minItems', 'maxItems', 'uniqueItems']),
};

/**
 * A fast-check arbitrary of the values `schema` accepts, for exactly the JSON Schema keywords our
 * OpenAPI document uses: `$ref`, `oneOf`/`anyOf`, `type` (one or a list), `enum`, `const`, string
 * bounds, `pattern`, `format` and `not`, integer bounds, object `properties`, `required`,
 * `additionalProperties`, `propertyNames`, `minProperties`, `maxProperties`, `dependentRequired`,
 * and array `items`, bounds and `uniqueItems`. Any other keyword throws.
 */
export function arbitraryOf(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const { $ref, oneOf, anyOf, ...rest } = schema;
  if (typeof $ref === 'string') {
    assertOnly(rest, new Set(), `$ref ${$ref}`);
    return arbitraryOf(options.resolve($ref), options);
  }
  const alternatives = oneOf ?? anyOf;
  if (Array.isArray(alternatives)) {
    assertOnly(rest, new Set(), 'oneOf/anyOf');
    return fc.oneof(...alternatives.map((option: JsonSchema) => arbitraryOf(option, options)));
  }
  const { type } = schema;
  if (Array.isArray(type)) {
    return fc.oneof(...type.map((one: string) => arbitraryOf({ ...schema, type: one }, options)));
  }
  if (typeof type !== 'string' || handledKeywords[type] === undefined) {
    throw new Error(`No arbitrary for a schema of type ${JSON.stringify(type)}: ${JSON.stringify(schema)}`);
  }
  assertOnly(schema, handledKeywords[type], `a ${type} schema`);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (type) {
    case 'string':
      return stringOf(schema, options);
    case 'integer':
      return fc.integer({ min: schema.minimum as number, max: schema.maximum as number });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'object':
      return objectOf(schema, options);
    default:
      return arrayOf(schema, options);
  }
}

function assertOnly(schema: JsonSchema, handled: ReadonlySet<string>, what: string): void {
  const unknown = Object.keys(schema).filter((key) => !handled.has(key) && !annotationKeywords.has(key));
  if (unknown.length > 0) {
    throw new Error(`The arbitrary converter does not know ${unknown.join(', ')} in ${what}`);
  }
}

/**
 * A pattern is generated from; the rest (lengths, format, `not`) filters, checked by the schema's
 * own validator. Without a pattern, any well-formed Unicode text: ASCII mostly, any code point too.
 */
function stringOf(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<string> {
  const valid = options.validatorOf(schema);
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 64, minLength + 64);
  const generated =
    typeof schema.pattern === 'string'
      ? fc.stringMatching(new RegExp(schema.pattern, 'u'))
      : fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: 'binary', minLength, maxLength }));
  const known = (options.known ?? []).filter((value) => valid(value));
  const candidates = known.length === 0 ? generated : fc.oneof(fc.constantFrom(...known), generated);
  return candidates.filter((value) => valid(value));
}

function objectOf(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const minProperties = (schema.minProperties as number | undefined) ?? 0;
  const maxProperties = schema.maxProperties as number | undefined;
  const dependentRequired = (schema.dependentRequired ?? {}) as Record<string, string[]>;
  const { additionalProperties } = schema;

  const keys = Object.keys(properties);
  // An open object (any further property allowed: a Stripe event) is given its named properties only,
  // which is valid and all its schema says of it.
  const open =
    additionalProperties === true ||
    (typeof additionalProperties === 'object' &&
      additionalProperties !== null &&
      Object.keys(additionalProperties).length === 0);
  let object: fc.Arbitrary<Record<string, unknown>>;
  if (keys.length > 0 || additionalProperties === false || open) {
    if (additionalProperties !== false && !open) {
      throw new Error('The arbitrary converter knows named properties only with additionalProperties false');
    }
    const fields = Object.fromEntries(
      keys.map((key) => {
        const fixed = options.fixed?.[key];
        return [
          key,
          fixed === undefined ? arbitraryOf(properties[key] as JsonSchema, options) : fc.constant(fixed),
        ];
      }),
    );
    object = fc.record(fields, { requiredKeys: keys.filter((key) => required.has(key)) });
  } else {
    const values = arbitraryOf(additionalProperties as JsonSchema, options);
    const names = arbitraryOf({ type: 'string', ...(schema.propertyNames as JsonSchema) }, options);
    object = fc.dictionary(names as fc.Arbitrary<string>, values, {
      minKeys: minProperties,
      ...(maxProperties === undefined ? {} : { maxKeys: maxProperties }),
    });
  }
  return object.filter((value) => {
    const present = Object.keys(value);
    if (present.length < minProperties) return false;
    if (maxProperties !== undefined && present.length > maxProperties) return false;
    return Object.entries(dependentRequired).every(
      ([field, needs]) => !(field in value) || needs.every((need) => need in value),
    );
  });
}

function arrayOf(schema: JsonSchema, options: ArbitraryOptions): fc.Arbitrary<unknown[]> {
  const items = arbitraryOf(schema.items as JsonSchema, options);
  const bounds = {
    minLength: (schema.minItems as number | undefined) ?? 0,
    ...(schema.maxItems === undefined ? {} : { maxLength: schema.maxItems as number }),
  };
  return schema.uniqueItems === true
    ? fc.uniqueArray(items, { ...bounds, selector: (item) => JSON.stringify(item) })
    : fc.array(items, bounds);
}
