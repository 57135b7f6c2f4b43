import type { Schema, SchemaNode } from '../../functions/schema';

export type JsonSchema = { [keyword: string]: unknown };

/** `input` for requests (defaults make a field optional), `output` for responses. */
export type Io = 'input' | 'output';

/** Names the `$ref` of a schema that has a component of its own, or undefined to inline it. */
export type RefOf = (schema: Schema) => string | undefined;

/**
 * The JSON Schema (2020-12, the dialect of OpenAPI 3.1) of one schema. Keywords come in a fixed
 * order per kind and a schema's `annotate` metadata follows its own keywords, so the document is
 * the same on every run. Rules beyond the shape (`refine`) have no JSON Schema form; their base
 * schema and metadata still show.
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
    case 'refine':
      return node.kind === 'refine' ? { ...child(node.inner), ...meta } : { ...meta, ...child(node.inner) };
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
      };
    case 'integer':
      return {
        type: 'integer',
        minimum: Math.max(node.minimum ?? Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
        maximum: Math.min(node.maximum ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
      };
    case 'boolean':
      return { type: 'boolean' };
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
  const { anyOf: _anyOf, ...rest } = json;
  return { ...rest, type: types };
}
