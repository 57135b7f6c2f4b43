import type { Issue, Path, Schema } from './schema';

export function boolean(): Schema<boolean> {
  return {
    node: { kind: 'boolean' },
    run: (value: unknown, path: Path, issues: Issue[]) => {
      if (typeof value !== 'boolean')
        issues.push({ code: 'invalid_type', expected: 'boolean', input: value, path });
      return value;
    },
  };
}
