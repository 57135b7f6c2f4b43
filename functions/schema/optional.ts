import type { Infer, InferInput, Schema } from './schema';

/** Absent (undefined) is accepted as is. */
export function optional<const S extends Schema>(
  inner: S,
): Schema<Infer<S> | undefined, InferInput<S> | undefined> {
  return {
    node: { kind: 'optional', inner },
    run: (value, path, issues) => (value === undefined ? undefined : inner.run(value, path, issues)),
  };
}
