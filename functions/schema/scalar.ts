import type { Issue, Path, Schema } from './schema';

/** A JSON string, integer, boolean or null: the values of an event's payload fields. */
export function scalar(): Schema<string | number | boolean | null> {
  return {
    node: { kind: 'scalar' },
    run: (value: unknown, path: Path, issues: Issue[]) => {
      const fits =
        value === null ||
        typeof value === 'string' ||
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isInteger(value));
      if (!fits) issues.push({ code: 'invalid_type', expected: 'scalar', input: value, path });
      return value;
    },
  };
}
