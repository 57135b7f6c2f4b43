import { type Infer, type InferInput, type RuleKeywords, type Schema, stopsChecks } from './schema';

export interface RefineOptions {
  /** The field below the value that the problem is listed under. */
  readonly at?: string;
  /** The rule as JSON Schema keywords, when it has them; validation never reads them. */
  readonly keywords?: RuleKeywords;
}

/**
 * A rule beyond the schema's shape: `problemOf` returns the message of what is wrong, or undefined.
 * It runs only when the value's type and set checks passed (a bound or format problem does not
 * stop it), and its problem is listed under `options.at` below the value, when given.
 */
export function refine<const S extends Schema>(
  inner: S,
  problemOf: (value: Infer<S>) => string | undefined,
  options: RefineOptions = {},
): Schema<Infer<S>, InferInput<S>> {
  const { at, keywords } = options;
  return {
    node: { kind: 'refine', inner, ...(keywords === undefined ? {} : { keywords }) },
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
