import type * as z from 'zod/mini';
import { type SchemaMeta, schemaMeta } from './schema-meta';

/** The JSON Schema keywords that state a rule, for the rules that have them. */
export type RuleKeywords = Pick<
  SchemaMeta,
  'uniqueItems' | 'minProperties' | 'maxProperties' | 'dependentRequired' | 'pattern' | 'not'
>;

export interface RuleOptions {
  /** The field below the value that the problem is listed under. */
  readonly at?: string;
  /** The rule as JSON Schema keywords, when it has them; validation never reads them. */
  readonly keywords?: RuleKeywords;
}

/**
 * A rule beyond the schema's shape: `problemOf` returns the message of what is wrong, or
 * undefined. Like every zod check it runs only when nothing aborted the value (a wrong type, a
 * value outside its set, a bad record key, an oversized array); a bound or format problem does not
 * stop it. Its problem is listed under `options.at` below the value, when given.
 */
export function rule<S extends z.ZodMiniType>(
  schema: S,
  problemOf: (value: z.output<S>) => string | undefined,
  options: RuleOptions = {},
): S {
  const { at, keywords } = options;
  const checked = schema.check((payload) => {
    const message = problemOf(payload.value as z.output<S>);
    if (message === undefined) return;
    payload.issues.push({
      code: 'custom',
      message,
      input: payload.value,
      continue: true,
      ...(at === undefined ? {} : { path: [at] }),
    });
  }) as S;
  if (keywords !== undefined) {
    const base = schemaMeta.get(schema) ?? {};
    const clash = Object.keys(keywords).find((keyword) => keyword in base);
    if (clash !== undefined) throw new Error(`A rule and its base schema both declare "${clash}"`);
    schemaMeta.add(checked, { ...base, ...keywords });
  }
  return checked;
}
