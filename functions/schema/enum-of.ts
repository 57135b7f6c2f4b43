import type { Issue, Path, Schema } from './schema';

/** One of a set of strings: a list, or an `as const` object whose values are the set. */
export function enumOf<const T extends string>(
  values: readonly T[] | { readonly [key: string]: T },
): Schema<T> {
  const accepted: readonly T[] = Array.isArray(values) ? values : Object.values(values);
  return {
    node: { kind: 'enum', values: accepted },
    run: (input: unknown, path: Path, issues: Issue[]) => {
      if (!accepted.includes(input as T))
        issues.push({ code: 'invalid_value', values: accepted, input, path });
      return input;
    },
  };
}
