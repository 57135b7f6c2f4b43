import type { RuleKeywords, Schema, SchemaNode } from '../../functions/schema';

export type JsonSchema = { [keyword: string]: unknown };

/** `input` for requests (defaults make a field optional), `output` for responses. */
export type Io = 'input' | 'output';

/** Names the `$ref` of a schema that has a component of its own, or undefined to inline it. */
export type RefOf = (schema: Schema) => string | undefined;

/**
 * The JSON Schema (2020-12, the dialect of OpenAPI 3.1) of one schema. Keywords come in a fixed
 * order per kind and a schema's `annotate` metadata follows its own keywords, so the document is
 * the same on every run. A rule beyond the shape (`refine`) shows as the keywords it declares; one
 * without any is stated in its metadata's description.
 */
export function toJsonSchema(schema: Schema, io: Io, refOf: RefOf): JsonSchema {
  return compactNullable(convert(schema, io, refOf));
}

function convert(schema: Schema, io: Io, refOf: RefOf): JsonSchema {
  const { node } = schema;
  const { id: _id, ...meta } = schema.meta ?? {};
  const child = (inner: Schema): JsonSchema => {
    const ref = refOf(inner);
    return ref === undefined ? toJsonSchema(inner, io, refOf) : { $ref: ref };
  };
  switch (node.kind) {
    // A wrapper's own keywords come first, then those of what it wraps.
    case 'optional':
      return { ...meta, ...child(node.inner) };
    case 'refine':
      return { ...withRule(child(node.inner), node.keywords), ...meta };
    case 'default':
      return { default: node.value, ...meta, ...child(node.inner) };
    case 'nullable':
      return { anyOf: [child(node.inner), { type: 'null' }], ...meta };
    default:
      return { ...keywordsOf(node, child, io), ...meta };
  }
}

function keywordsOf(node: SchemaNode, child: (inner: Schema) => JsonSchema, io: Io): JsonSchema {
  switch (node.kind) {
    case 'string':
      return {
        type: 'string',
        ...(node.minLength === undefined ? {} : { minLength: node.minLength }),
        ...(node.maxLength === undefined ? {} : { maxLength: node.maxLength }),
        ...(node.format === undefined ? {} : { format: node.format }),
        ...(node.pattern === undefined ? {} : { pattern: node.pattern.source }),
        ...(node.notPattern === undefined ? {} : { not: { pattern: node.notPattern.source } }),
        ...trimmedKeywords(node),
      };
    case 'integer':
      return {
        type: 'integer',
        minimum: Math.max(node.minimum ?? Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
        maximum: Math.min(node.maximum ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'scalar':
      // One alternative per type, kept apart by compactNullable (see there).
      return { anyOf: scalarTypes.map((type) => ({ type })) };
    case 'literal':
      return { type: typeof node.value, const: node.value };
    case 'enum':
      return { type: 'string', enum: [...node.values] };
    case 'object': {
      const entries = Object.entries(node.shape);
      const required = entries.filter(([, field]) => !mayBeAbsent(field, io)).map(([name]) => name);
      return {
        type: 'object',
        properties: Object.fromEntries(entries.map(([name, field]) => [name, child(field)])),
        ...(required.length === 0 ? {} : { required }),
        additionalProperties: false,
      };
    }
    case 'array':
      return {
        ...(node.minItems === undefined ? {} : { minItems: node.minItems }),
        ...(node.maxItems === undefined ? {} : { maxItems: node.maxItems }),
        type: 'array',
        items: child(node.items),
      };
    case 'record':
      return { type: 'object', propertyNames: child(node.keys), additionalProperties: child(node.values) };
    case 'union':
      return { oneOf: node.options.map(child) };
    default:
      throw new Error(`No JSON Schema keywords for a ${node.kind} schema`);
  }
}

/**
 * Lengths of a trimmed string count what remains after trimming, which no keyword can say. The
 * raw-length bounds stay (stricter than the service at the maximum, never looser); a minimum of
 * one becomes "holds a non-whitespace character", since JavaScript's trim and `\s` share one set.
 */
function trimmedKeywords(node: Extract<SchemaNode, { kind: 'string' }>): JsonSchema {
  if (node.trim !== true) return {};
  const bounds =
    node.maxLength === undefined
      ? `at least ${node.minLength ?? 0}`
      : `${node.minLength ?? 0} to ${node.maxLength}`;
  const description = `Surrounding whitespace is removed; ${bounds} characters must remain.`;
  if (node.minLength === undefined || node.minLength === 0) return { description };
  if (node.minLength > 1 || node.pattern !== undefined) {
    throw new Error('A trimmed string has a JSON Schema form only with a minimum of 1 and no pattern');
  }
  return { pattern: '\\S', description };
}

/** A rule's keywords beside its base schema's; a keyword both declare would hide one rule. */
function withRule(base: JsonSchema, keywords: RuleKeywords | undefined): JsonSchema {
  if (keywords === undefined) return base;
  const { pattern, notPattern, ...plain } = keywords;
  const rule: JsonSchema = {
    ...plain,
    ...(pattern === undefined ? {} : { pattern: pattern.source }),
    ...(notPattern === undefined ? {} : { not: { pattern: notPattern.source } }),
  };
  const clash = Object.keys(rule).find((keyword) => keyword in base);
  if (clash !== undefined) throw new Error(`A refine rule and its base schema both declare "${clash}"`);
  return { ...base, ...rule };
}

/** An optional field may be absent either way; a defaulted one only in a request. */
function mayBeAbsent(schema: Schema, io: Io): boolean {
  const { node } = schema;
  if (node.kind === 'optional') return true;
  if (node.kind === 'default') return io === 'input';
  return node.kind === 'refine' && mayBeAbsent(node.inner, io);
}

/** `anyOf: [{type: X}, {type: 'null'}]` reads better as `type: [X, 'null']`, at every depth. */
function compactNullable(json: JsonSchema): JsonSchema {
  const { anyOf } = json;
  if (!Array.isArray(anyOf) || json.type !== undefined) return json;
  const types = anyOf.map((option: JsonSchema) => {
    const keys = Object.keys(option);
    return keys.length === 1 && keys[0] === 'type' && typeof option.type === 'string'
      ? option.type
      : undefined;
  });
  if (types.some((type) => type === undefined)) return json;
  // Only a type and null: a longer type list is refused by strict validators (Ajv's strictTypes).
  if (types.length !== 2 || !types.includes('null')) return json;
  const { anyOf: _anyOf, ...rest } = json;
  return { ...rest, type: types };
}

/** The JSON types of a scalar value (an event's `data` fields). */
const scalarTypes = ['string', 'integer', 'boolean', 'null'] as const;
