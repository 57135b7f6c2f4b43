import type { Infer, InferInput, Issue, Path, Schema, Shape } from './schema';

type Flatten<T> = { [K in keyof T]: T[K] } & {};
type OptionalKeys<S extends Shape, Side> = {
  [K in keyof S]: undefined extends (Side extends 'input' ? InferInput<S[K]> : Infer<S[K]>) ? K : never;
}[keyof S];
type ObjectOf<S extends Shape, Side extends 'input' | 'output'> = Flatten<
  {
    [K in Exclude<keyof S, OptionalKeys<S, Side>>]: Side extends 'input' ? InferInput<S[K]> : Infer<S[K]>;
  } & {
    [K in OptionalKeys<S, Side>]?: Side extends 'input' ? InferInput<S[K]> : Infer<S[K]>;
  }
>;

export interface ObjectSchema<S extends Shape = Shape>
  extends Schema<ObjectOf<S, 'output'>, ObjectOf<S, 'input'>> {
  readonly shape: S;
}

/**
 * An object with exactly these fields: each field is checked in declaration order, then every key
 * the shape does not name is reported. The result holds the shape's fields only.
 */
export function strictObject<const S extends Shape>(shape: S): ObjectSchema<S> {
  const keys = Object.keys(shape);
  return {
    shape,
    node: { kind: 'object', shape },
    run: (value: unknown, path: Path, issues: Issue[]) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        issues.push({ code: 'invalid_type', expected: 'object', input: value, path });
        return value;
      }
      const input = value as Record<string, unknown>;
      const output: Record<string, unknown> = {};
      for (const key of keys) {
        const parsed = (shape[key] as Schema).run(input[key], [...path, key], issues);
        if (parsed !== undefined || key in input) output[key] = parsed;
      }
      const unknown = Object.keys(input).filter((key) => !Object.hasOwn(shape, key));
      if (unknown.length > 0) issues.push({ code: 'unrecognized_keys', keys: unknown, path });
      return output;
    },
  };
}
