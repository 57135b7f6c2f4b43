import * as z from 'zod/mini';

/**
 * What the OpenAPI document says of a schema beyond what `z.toJSONSchema` reads from it: `id`
 * names a component, and the JSON Schema keywords of rules our own checks enforce (code-point
 * lengths, patterns, `uniqueItems`, …) are merged into the schema's JSON as written here.
 * Validation never reads it.
 */
export interface SchemaMeta {
  /** Names the schema: it becomes `components/schemas/<id>`. */
  readonly id?: string;
  readonly description?: string;
  readonly example?: unknown;
  readonly format?: string;
  readonly type?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly not?: { readonly pattern: string };
  readonly uniqueItems?: true;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly dependentRequired?: { readonly [field: string]: readonly string[] };
  readonly anyOf?: readonly { readonly type: string }[];
}

/** The metadata of every schema the functions declare; `tools/openapi/build-openapi.ts` reads it. */
export const schemaMeta = z.registry<SchemaMeta>();

/**
 * The schema with documentation attached, as a copy: the same schema documented twice (a
 * timestamp with two descriptions) keeps both. Keywords the copy's original already has are kept
 * unless `meta` names them again.
 */
export function documented<S extends z.ZodMiniType>(schema: S, meta: SchemaMeta): S {
  const copy = schema.clone() as S;
  const inherited = schemaMeta.get(schema);
  const { id: _id, ...kept } = inherited ?? {};
  schemaMeta.add(copy, { ...kept, ...meta });
  return copy;
}
