import type { Infer, InferInput, Schema } from './schema';

/** `null` is accepted as is. */
export function nullable<const S extends Schema>(inner: S): Schema<Infer<S> | null, InferInput<S> | null> {
  return {
    node: { kind: 'nullable', inner },
    run: (value, path, issues) => (value === null ? null : inner.run(value, path, issues)),
  };
}
