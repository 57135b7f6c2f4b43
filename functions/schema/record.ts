import type { Infer, Issue, Path, Schema } from './schema';

/** An object of any keys matching `keys`, each value matching `values`. */
export function record<const V extends Schema>(
  keys: Schema<string>,
  values: V,
): Schema<Record<string, Infer<V>>> {
  return {
    node: { kind: 'record', keys, values },
    run: (value: unknown, path: Path, issues: Issue[]) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        issues.push({ code: 'invalid_type', expected: 'object', input: value, path });
        return value;
      }
      const output: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const keyPath = [...path, key];
        const keyIssues: Issue[] = [];
        keys.run(key, keyPath, keyIssues);
        const [keyIssue] = keyIssues;
        if (keyIssue !== undefined) {
          issues.push({ code: 'invalid_key', issue: keyIssue, path: keyPath });
          continue;
        }
        // JSON.parse makes "__proto__" an own key; assigning it would replace the result's
        // prototype instead, so every key is defined as the own property it was.
        Object.defineProperty(output, key, {
          value: values.run(item, keyPath, issues),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return output;
    },
  };
}
