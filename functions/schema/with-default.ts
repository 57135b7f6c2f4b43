import type { Infer, InferInput, Schema } from './schema';

/** Absent (undefined) becomes `value`, which is taken as is, not checked. */
export function withDefault<const S extends Schema>(
  inner: S,
  value: Infer<S>,
): Schema<Exclude<Infer<S>, undefined>, InferInput<S> | undefined> {
  return {
    node: { kind: 'default', inner, value },
    run: (input, path, issues) => (input === undefined ? value : inner.run(input, path, issues)),
  };
}
