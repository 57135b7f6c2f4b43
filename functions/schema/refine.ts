import { type Infer, type InferInput, type Schema, stopsChecks } from './schema';

/**
 * A rule beyond the schema's shape: `problemOf` returns the message of what is wrong, or undefined.
 * It runs only when the value's type and set checks passed (a bound or format problem does not
 * stop it), and its problem is listed under `at` below the value, when given.
 */
export function refine<const S extends Schema>(
  inner: S,
  problemOf: (value: Infer<S>) => string | undefined,
  at?: string,
): Schema<Infer<S>, InferInput<S>> {
  return {
    node: { kind: 'refine', inner },
    run: (value, path, issues) => {
      const from = issues.length;
      const parsed = inner.run(value, path, issues);
      if (stopsChecks(issues, from)) return parsed;
      const message = problemOf(parsed as Infer<S>);
      if (message !== undefined) {
        issues.push({ code: 'custom', message, path: at === undefined ? path : [...path, at] });
      }
      return parsed;
    },
  };
}
