export { array } from './array';
export { boolean } from './boolean';
export { dateTime } from './date-time';
export { discriminatedUnion } from './discriminated-union';
export { enumOf } from './enum-of';
export { integer } from './integer';
export { literal } from './literal';
export { nullable } from './nullable';
export { optional } from './optional';
export { record } from './record';
export { type RefineOptions, refine } from './refine';
export { scalar } from './scalar';
export {
  annotate,
  type Infer,
  type InferInput,
  type Issue,
  type Path,
  parse,
  type RuleKeywords,
  type Schema,
  SchemaError,
  type SchemaMeta,
  type SchemaNode,
  type Shape,
  safeParse,
  type TypeName,
} from './schema';
export { type ObjectSchema, strictObject } from './strict-object';
export { string } from './string';
export { withDefault } from './with-default';
