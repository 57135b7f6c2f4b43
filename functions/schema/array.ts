import type { Infer, InferInput, Issue, Path, Schema } from './schema';

export interface ArrayOptions {
  readonly min?: number;
  readonly max?: number;
}

/**
 * An array over its maximum is refused as a whole, before any item is checked, so an oversized
 * request costs no more than its length. Otherwise every item is checked (problems listed under its
 * index), then the minimum.
 */
export function array<const S extends Schema>(
  items: S,
  options: ArrayOptions = {},
): Schema<Infer<S>[], InferInput<S>[]> {
  const { min, max } = options;
  return {
    node: {
      kind: 'array',
      items,
      ...(min === undefined ? {} : { minItems: min }),
      ...(max === undefined ? {} : { maxItems: max }),
    },
    run: (value: unknown, path: Path, issues: Issue[]) => {
      if (!Array.isArray(value)) {
        issues.push({ code: 'invalid_type', expected: 'array', input: value, path });
        return value;
      }
      if (max !== undefined && value.length > max) {
        issues.push({ code: 'too_big', limit: max, unit: 'item', path });
        return value;
      }
      const output = value.map((item, index) => items.run(item, [...path, index], issues));
      if (min !== undefined && value.length < min) {
        issues.push({ code: 'too_small', limit: min, unit: 'item', path });
      }
      return output;
    },
  };
}
