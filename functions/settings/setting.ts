/**
 * How every process of the service reads its environment: one rule per variable, shared by the
 * Lambda functions, the local runtime, the admin CLI and the webhook receiver, so a value means the
 * same wherever it is set. Plain functions rather than zod: the authorizer reads them and carries
 * no zod (docs/decisions.md "Validation on zod/mini").
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

/** One variable's rule: what it accepts (said in every error and in the docs) and how it is read. */
export interface Setting<T> {
  /** What the variable accepts, as a phrase: "1, 0, true or false". */
  readonly accepts: string;
  /** The value used when the variable is unset, as written in the docs; undefined when there is none. */
  readonly defaultText: string | undefined;
  /** A secret's value is never repeated in an error. */
  readonly secret: boolean;
  /** Unset (absent or empty) comes in as undefined. */
  read(variable: string, raw: string | undefined): T;
}

interface RuleOptions {
  readonly secret?: boolean;
}

/** A rule without a default: unset reads as undefined. `parse` answers undefined for a refused value. */
function rule<T>(accepts: string, parse: (text: string) => T | undefined, options: RuleOptions = {}) {
  const secret = options.secret ?? false;
  return {
    accepts,
    defaultText: undefined,
    secret,
    read(variable: string, raw: string | undefined): T | undefined {
      if (raw === undefined || raw === '') return undefined;
      const value = parse(raw);
      if (value === undefined) {
        const given = secret ? '' : `="${raw}"`;
        throw new SettingError(variable, `${variable}${given} is not accepted: it must be ${accepts}.`);
      }
      return value;
    },
  } satisfies Setting<T | undefined>;
}

/** An on/off switch: exactly 1, 0, true or false. */
export function flag(): Setting<boolean | undefined> {
  return rule('1, 0, true or false', (text) => {
    if (text === '1' || text === 'true') return true;
    if (text === '0' || text === 'false') return false;
    return undefined;
  });
}

/** A whole number within bounds, written in decimal digits only. */
export function wholeNumber(min: number, max: number): Setting<number | undefined> {
  return rule(`a whole number from ${min} to ${max}`, (text) => {
    if (!/^\d{1,16}$/.test(text)) return undefined;
    const value = Number(text);
    return value >= min && value <= max ? value : undefined;
  });
}

/** One of a fixed set of words. */
export function oneOf<const V extends string>(values: readonly V[]): Setting<V | undefined> {
  const listed = values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`;
  return rule(listed, (text) => values.find((value) => value === text));
}

/** Free text of at most `maxLength` characters (a name, a path, an address). */
export function text(
  what: string,
  options: RuleOptions & { maxLength?: number } = {},
): Setting<string | undefined> {
  const maxLength = options.maxLength ?? 2048;
  return textWhere(what, (value) => value.length <= maxLength, options);
}

/** Text that passes `accepted`; `what` says in words what passes. */
export function textWhere(
  what: string,
  accepted: (value: string) => boolean,
  options: RuleOptions = {},
): Setting<string | undefined> {
  return rule(what, (value) => (accepted(value) ? value : undefined), options);
}

/** An absolute http or https URL. */
export function httpUrl(): Setting<string | undefined> {
  return rule('an http:// or https:// URL', (value) => {
    if (!URL.canParse(value)) return undefined;
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:' ? value : undefined;
  });
}

/** The same rule, with a value for when the variable is unset. */
export function withDefault<T>(setting: Setting<T | undefined>, value: T): Setting<T> {
  return {
    accepts: setting.accepts,
    defaultText: String(value),
    secret: setting.secret,
    read: (variable, raw) => setting.read(variable, raw) ?? value,
  };
}

/** The same rule, for a process that cannot run without the variable. */
export function required<T>(setting: Setting<T | undefined>): Setting<T> {
  return {
    accepts: setting.accepts,
    defaultText: undefined,
    secret: setting.secret,
    read: (variable, raw) => {
      const value = setting.read(variable, raw);
      if (value === undefined) {
        throw new SettingError(variable, `${variable} is not set: it must be ${setting.accepts}.`);
      }
      return value;
    },
  };
}

export type SettingsSpec = Readonly<Record<string, Setting<unknown>>>;

export type SettingsOf<S extends SettingsSpec> = {
  readonly [Name in keyof S]: S[Name] extends Setting<infer T> ? T : never;
};

/** Reads every variable of `spec` from `env`; the first refused one throws its SettingError. */
export function readSettings<S extends SettingsSpec>(
  env: Readonly<Record<string, string | undefined>>,
  spec: S,
): SettingsOf<S> {
  const values: Record<string, unknown> = {};
  for (const [variable, setting] of Object.entries(spec)) {
    values[variable] = setting.read(variable, env[variable]);
  }
  return values as SettingsOf<S>;
}
