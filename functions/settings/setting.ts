import * as z from 'zod/mini';

/**
 * How every process of the service reads its environment: one rule per variable, shared by the
 * Lambda functions, the local runtime, the admin CLI and the webhook receiver, so a value means the
 * same wherever it is set. Each rule is a zod/mini schema from the variable's text to its value,
 * beside the words said about it; `readSettings` parses the environment with one object of those
 * schemas and words its first problem itself (docs/decisions/settings-one-rule-per-variable.md
 * and docs/decisions/validation-on-zod-mini.md).
 */

/** A variable holds a value its rule refuses, or a required one is unset. */
export class SettingError extends Error {
  override name = 'SettingError';
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(message);
    this.variable = variable;
  }
}

/** A set variable's rule: its text in, its value out; a refused text is an issue. */
type ValueSchema<T> = z.ZodMiniType<T, string>;

/** One variable's rule: its schema, what it accepts (said in every error and in the docs). */
export interface Setting<T> {
  /** The variable as the environment holds it (unset is absent or empty) in, its value out. */
  readonly schema: z.ZodMiniType<T, string | undefined>;
  /** The rule of a set variable, which `withDefault` and `required` build on. */
  readonly value: ValueSchema<Exclude<T, undefined>>;
  /** What the variable accepts, as a phrase: "1, 0, true or false". */
  readonly accepts: string;
  /** The value used when the variable is unset, as written in the docs; undefined when there is none. */
  readonly defaultText: string | undefined;
  /** A secret's value is never repeated in an error. */
  readonly secret: boolean;
  /** Reads one variable through `readSettings`. */
  read(variable: string, raw: string | undefined): T;
}

interface RuleOptions {
  readonly secret?: boolean;
}

/** An exported but empty variable counts as unset. */
const unsetWhenEmpty = z.transform((raw: string | undefined) => (raw === '' ? undefined : raw));

/** A rule and its words; `whenUnset` wraps the set variable's schema with what unset reads as. */
function setting<T>(
  whenUnset: (value: ValueSchema<Exclude<T, undefined>>) => z.ZodMiniType<T, string | undefined>,
  value: ValueSchema<Exclude<T, undefined>>,
  words: { accepts: string; defaultText?: string; secret: boolean },
): Setting<T> {
  const self: Setting<T> = {
    schema: z.pipe(unsetWhenEmpty, whenUnset(value)),
    value,
    accepts: words.accepts,
    defaultText: words.defaultText,
    secret: words.secret,
    read: (variable, raw) => readSettings({ [variable]: raw }, { [variable]: self })[variable] as T,
  };
  return self;
}

/** A rule without a default: unset reads as undefined. */
function rule<T>(accepts: string, value: ValueSchema<T>, options: RuleOptions = {}): Setting<T | undefined> {
  return setting<T | undefined>(
    (set) => z.optional(set),
    value as ValueSchema<Exclude<T | undefined, undefined>>,
    {
      accepts,
      secret: options.secret ?? false,
    },
  );
}

/** An on/off switch: exactly 1, 0, true or false. */
export function flag(): Setting<boolean | undefined> {
  return rule(
    '1, 0, true or false',
    z.pipe(
      z.enum(['1', 'true', '0', 'false']),
      z.transform((text) => text === '1' || text === 'true'),
    ),
  );
}

/** A whole number within bounds, written in decimal digits only. */
export function wholeNumber(min: number, max: number): Setting<number | undefined> {
  return rule(
    `a whole number from ${min} to ${max}`,
    z.pipe(
      z.string().check(z.regex(/^\d{1,16}$/)),
      z.pipe(z.transform(Number), z.number().check(z.gte(min), z.lte(max))),
    ),
  );
}

/** One of a fixed set of words. */
export function oneOf<const V extends string>(values: readonly V[]): Setting<V | undefined> {
  const listed = values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
  return rule(listed, z.enum(values as readonly [V, ...V[]]) as ValueSchema<V>);
}

/** Free text of at most `maxLength` characters (a name, a path, an address). */
export function text(
  what: string,
  options: RuleOptions & { maxLength?: number } = {},
): Setting<string | undefined> {
  return rule(what, z.string().check(z.maxLength(options.maxLength ?? 2048)), options);
}

/** Text that passes `accepted`; `what` says in words what passes. */
export function textWhere(
  what: string,
  accepted: (value: string) => boolean,
  options: RuleOptions = {},
): Setting<string | undefined> {
  return rule(what, z.string().check(z.refine(accepted)), options);
}

/**
 * An absolute http or https URL, kept as written: zod's `url` trims the text and refuses
 * `http:host`, which the URL parser (and so this rule) takes.
 */
export function httpUrl(): Setting<string | undefined> {
  return rule(
    'an http:// or https:// URL',
    z.string().check(
      z.refine((value) => {
        if (!URL.canParse(value)) return false;
        const { protocol } = new URL(value);
        return protocol === 'http:' || protocol === 'https:';
      }),
    ),
  );
}

/** The same rule, with a value for when the variable is unset. */
export function withDefault<T>(rule: Setting<T | undefined>, value: T): Setting<T> {
  const set = rule.value as ValueSchema<Exclude<T, undefined>>;
  return setting<T>(
    (schema) => z._default(schema, value as never) as z.ZodMiniType<T, string | undefined>,
    set,
    {
      accepts: rule.accepts,
      defaultText: String(value),
      secret: rule.secret,
    },
  );
}

/** The same rule, for a process that cannot run without the variable: unset is a problem. */
export function required<T>(rule: Setting<T | undefined>): Setting<T> {
  const set = rule.value as ValueSchema<Exclude<T, undefined>>;
  return setting<T>((schema) => schema as z.ZodMiniType<T, string | undefined>, set, {
    accepts: rule.accepts,
    secret: rule.secret,
  });
}

export type SettingsSpec = Readonly<Record<string, Setting<unknown>>>;

export type SettingsOf<S extends SettingsSpec> = {
  readonly [Name in keyof S]: S[Name] extends Setting<infer T> ? T : never;
};

/**
 * Reads every variable of `spec` from `env` with one zod object of their schemas; the first
 * variable with a problem throws its SettingError, which says whether it is unset or refused and
 * repeats the value unless it is a secret.
 */
export function readSettings<S extends SettingsSpec>(
  env: Readonly<Record<string, string | undefined>>,
  spec: S,
): SettingsOf<S> {
  const shape: Record<string, Setting<unknown>['schema']> = {};
  for (const [variable, rule] of Object.entries(spec)) shape[variable] = rule.schema;
  const result = z.object(shape).safeParse(env);
  if (result.success) return result.data as SettingsOf<S>;
  const variable = String(result.error.issues[0]?.path[0]);
  const { accepts, secret } = spec[variable] as Setting<unknown>;
  const raw = env[variable];
  if (raw === undefined || raw === '') {
    throw new SettingError(variable, `${variable} is not set: it must be ${accepts}.`);
  }
  const given = secret ? '' : `="${raw}"`;
  throw new SettingError(variable, `${variable}${given} is not accepted: it must be ${accepts}.`);
}
