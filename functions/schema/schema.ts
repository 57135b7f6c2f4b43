/**
 * The request schemas' runtime: each schema is a small node that says what it accepts (read by the
 * OpenAPI generator) and a `run` that checks a value against it. Kept to exactly what our routes
 * use, so a function's bundle carries a few KB of validation rather than a general library.
 */

/** Where a problem is, from the value's root: field names and array indexes. */
export type Path = readonly (string | number)[];

/** What a schema says about values, as data: the OpenAPI generator converts it to JSON Schema. */
export type SchemaNode =
  | {
      readonly kind: 'string';
      readonly trim?: boolean;
      readonly minLength?: number;
      readonly maxLength?: number;
      readonly format?: 'date-time';
      readonly pattern?: RegExp;
      readonly notPattern?: RegExp;
    }
  | {
      readonly kind: 'integer';
      readonly minimum?: number;
      readonly maximum?: number;
      readonly coerce?: boolean;
    }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'scalar' }
  | { readonly kind: 'literal'; readonly value: string | number }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'object'; readonly shape: Shape }
  | { readonly kind: 'array'; readonly items: Schema; readonly minItems?: number; readonly maxItems?: number }
  | { readonly kind: 'record'; readonly keys: Schema; readonly values: Schema }
  | { readonly kind: 'union'; readonly discriminator: string; readonly options: readonly Schema[] }
  | { readonly kind: 'optional' | 'nullable'; readonly inner: Schema }
  | { readonly kind: 'refine'; readonly inner: Schema; readonly keywords?: RuleKeywords }
  | { readonly kind: 'default'; readonly inner: Schema; readonly value: unknown };

/**
 * The JSON Schema keywords that state a `refine` rule, for the rules that have them; the OpenAPI
 * generator publishes them, so a client's validator refuses what the service refuses.
 */
export interface RuleKeywords {
  readonly uniqueItems?: true;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly dependentRequired?: { readonly [field: string]: readonly string[] };
  readonly pattern?: RegExp;
  /** A value matching this pattern is refused. */
  readonly notPattern?: RegExp;
}

/** Documentation only: the OpenAPI generator reads it, validation never does. */
export interface SchemaMeta {
  /** Names the schema: it becomes `components/schemas/<id>`. */
  readonly id?: string;
  readonly description?: string;
  readonly example?: unknown;
  readonly format?: string;
}

export interface Schema<Output = unknown, Input = Output> {
  readonly node: SchemaNode;
  readonly meta?: SchemaMeta;
  /** Checks `value`, adding each problem to `issues`; the result counts only if none was added. */
  readonly run: (value: unknown, path: Path, issues: Issue[]) => unknown;
  /** Carries the types alone; never set. */
  readonly '~types'?: { readonly output: Output; readonly input: Input };
}

export type Shape = { readonly [key: string]: Schema };

/** The value a schema gives back: defaults applied, strings trimmed, query numbers converted. */
export type Infer<S> = S extends Schema<infer Output, unknown> ? Output : never;
/** The value a schema accepts. */
export type InferInput<S> = S extends Schema<unknown, infer Input> ? Input : never;

export type TypeName = 'string' | 'integer' | 'boolean' | 'object' | 'array' | 'scalar';

/** One problem, as data; `functions/http/validation-messages.ts` words it. */
export type Issue = { readonly path: Path; readonly message?: string } & (
  | { readonly code: 'invalid_type'; readonly expected: TypeName; readonly input: unknown }
  | { readonly code: 'invalid_value'; readonly values: readonly unknown[]; readonly input: unknown }
  | {
      readonly code: 'too_big' | 'too_small';
      readonly limit: number;
      readonly unit?: 'character' | 'item';
    }
  | {
      readonly code: 'invalid_format';
      readonly format: 'date-time' | 'pattern' | 'unicode';
      readonly pattern?: RegExp;
    }
  | { readonly code: 'invalid_key'; readonly issue: Issue }
  | { readonly code: 'unrecognized_keys'; readonly keys: readonly string[] }
  | { readonly code: 'custom'; readonly message: string }
);

/**
 * A value with a wrong type, a value outside a set, a bad record key or an array over its maximum
 * (whose items were never checked) stops the checks that build on it (an object's rules, an
 * array's uniqueness); any other value out of bounds or of the wrong form does not, so every such
 * problem is reported at once.
 */
export function stopsChecks(issues: readonly Issue[], from: number): boolean {
  for (let index = from; index < issues.length; index++) {
    const issue = issues[index];
    if (issue === undefined) continue;
    if (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_key')
      return true;
    if (issue.code === 'too_big' && issue.unit === 'item') return true;
  }
  return false;
}

export type ParseResult<T> =
  | { readonly success: true; readonly data: T }
  | { readonly success: false; readonly issues: readonly Issue[] };

export function safeParse<S extends Schema>(schema: S, value: unknown): ParseResult<Infer<S>> {
  const issues: Issue[] = [];
  const data = schema.run(value, [], issues);
  return issues.length === 0 ? { success: true, data: data as Infer<S> } : { success: false, issues };
}

/** A value that does not match the schema it was parsed with; the message names the bad paths. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  readonly issues: readonly Issue[];

  constructor(issues: readonly Issue[]) {
    super(`Invalid value at ${issues.map((issue) => issue.path.join('.') || '(root)').join(', ')}`);
    this.issues = issues;
  }
}

/** For values the service wrote itself (queue messages): a mismatch is a bug, thrown. */
export function parse<S extends Schema>(schema: S, value: unknown): Infer<S> {
  const result = safeParse(schema, value);
  if (!result.success) throw new SchemaError(result.issues);
  return result.data;
}

/** The schema with documentation attached; validation is unchanged. */
export function annotate<S extends Schema>(schema: S, meta: SchemaMeta): S {
  return { ...schema, meta: { ...schema.meta, ...meta } };
}
