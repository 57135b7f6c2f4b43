import type { Issue, Path, Schema } from './schema';

/** Exactly one value, e.g. a discriminator (`kind: 'product_charge'`). */
export function literal<const T extends string | number>(value: T): Schema<T> {
  return {
    node: { kind: 'literal', value },
    run: (input: unknown, path: Path, issues: Issue[]) => {
      if (input !== value) issues.push({ code: 'invalid_value', values: [value], input, path });
      return input;
    },
  };
}
