import { describe, expect, it } from 'vitest';
import { FunctionSettings, functionEnvironment, resetFunctionEnvironment } from '../../../functions/config';
import {
  flag,
  httpUrl,
  oneOf,
  readSettings,
  required,
  type Setting,
  SettingError,
  text,
  wholeNumber,
  withDefault,
} from '../../../functions/settings/setting';
import { AdminVariables } from '../../../tools/admin/settings';
import { LocalVariables } from '../../../tools/local/settings';
import { ReceiverVariables } from '../../../tools/webhook-receiver/receiver-settings';

function refusal(setting: Setting<unknown>, raw: string | undefined, variable = 'X'): string {
  try {
    setting.read(variable, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingError);
    expect((error as SettingError).variable).toBe(variable);
    return (error as Error).message;
  }
  throw new Error(`${variable}=${String(raw)} was accepted`);
}

describe('flag', () => {
  it.each([
    ['1', true],
    ['true', true],
    ['0', false],
    ['false', false],
  ])('reads %s as %s', (raw, value) => {
    expect(flag().read('X', raw)).toBe(value);
  });

  it.each(['yes', 'no', 'on', 'off', 'TRUE', ' 1', '2', 'truthy'])(
    'refuses %j naming what it accepts',
    (raw) => {
      expect(refusal(flag(), raw, 'WEBHOOK_ALLOW_PRIVATE_TARGETS')).toBe(
        `WEBHOOK_ALLOW_PRIVATE_TARGETS="${raw}" is not accepted: it must be 1, 0, true or false.`,
      );
    },
  );

  it('reads unset and empty alike: the default, or undefined without one', () => {
    expect(flag().read('X', undefined)).toBeUndefined();
    expect(flag().read('X', '')).toBeUndefined();
    expect(withDefault(flag(), false).read('X', '')).toBe(false);
  });
});

describe('wholeNumber', () => {
  it('accepts decimal digits within the bounds, both bounds included', () => {
    const port = wholeNumber(0, 65535);
    expect(port.read('PORT', '0')).toBe(0);
    expect(port.read('PORT', '65535')).toBe(65535);
    expect(port.read('PORT', '007')).toBe(7);
  });

  it.each(['65536', '-1', '1e3', '3.5', ' 80', '80 ', '0x10', 'eighty', '99999999999999999'])(
    'refuses %j',
    (raw) => {
      expect(refusal(wholeNumber(0, 65535), raw, 'PORT')).toBe(
        `PORT="${raw}" is not accepted: it must be a whole number from 0 to 65535.`,
      );
    },
  );
});

describe('the other rules', () => {
  it('oneOf lists the words it accepts', () => {
    expect(oneOf(['sandbox', 'production']).read('STAGE', 'production')).toBe('production');
    expect(refusal(oneOf(['sandbox', 'production']), 'staging', 'STAGE')).toBe(
      'STAGE="staging" is not accepted: it must be sandbox or production.',
    );
    expect(refusal(oneOf(['a', 'b', 'c']), 'd')).toBe('X="d" is not accepted: it must be one of a, b, c.');
  });

  it('httpUrl takes http and https URLs only', () => {
    expect(httpUrl().read('X', 'http://127.0.0.1:8000')).toBe('http://127.0.0.1:8000');
    expect(refusal(httpUrl(), 'ftp://host')).toContain('must be an http:// or https:// URL');
    expect(refusal(httpUrl(), '127.0.0.1:8000')).toContain('must be an http:// or https:// URL');
  });

  it('text keeps to its length', () => {
    expect(text('a name', { maxLength: 3 }).read('X', 'abc')).toBe('abc');
    expect(refusal(text('a name', { maxLength: 3 }), 'abcd')).toBe(
      'X="abcd" is not accepted: it must be a name.',
    );
  });

  it('never repeats the value of a secret', () => {
    const message = refusal(text('32 bytes in base64', { secret: true, maxLength: 4 }), 'hunter22', 'KEY');
    expect(message).toBe('KEY is not accepted: it must be 32 bytes in base64.');
    expect(message).not.toContain('hunter22');
  });

  it('required says the variable is not set and what it takes', () => {
    expect(refusal(required(text('a DynamoDB table name')), undefined, 'TABLE_NAME')).toBe(
      'TABLE_NAME is not set: it must be a DynamoDB table name.',
    );
    expect(refusal(required(text('a DynamoDB table name')), '', 'TABLE_NAME')).toContain('is not set');
  });

  it('readSettings reads each variable of its spec and nothing else', () => {
    const spec = { A: withDefault(wholeNumber(1, 9), 5), B: flag() };
    expect(readSettings({ A: '7', C: 'ignored' }, spec)).toEqual({ A: 7, B: undefined });
    expect(() => readSettings({ B: 'maybe' }, spec)).toThrow(SettingError);
  });
});

describe('functionEnvironment', () => {
  it('fails with one line naming a missing TABLE_NAME or STAGE', () => {
    const names = Object.keys(FunctionSettings);
    const saved = names.map((name) => [name, process.env[name]] as const);
    try {
      for (const name of names) delete process.env[name];
      process.env.STAGE = 'sandbox';
      resetFunctionEnvironment();
      expect(() => functionEnvironment()).toThrow('TABLE_NAME is not set: it must be a DynamoDB table name.');
      process.env.TABLE_NAME = 't';
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = '1';
      resetFunctionEnvironment();
      expect(functionEnvironment()).toMatchObject({ TABLE_NAME: 't', WEBHOOK_ALLOW_PRIVATE_TARGETS: true });
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      resetFunctionEnvironment();
    }
  });
});

/** Every process kind and the variables it reads. */
const kinds = {
  functions: FunctionSettings,
  'npm start': LocalVariables,
  'admin CLI': AdminVariables,
  'webhook receiver': ReceiverVariables,
} as const satisfies Record<string, Record<string, Setting<unknown>>>;

/** Values a user might export: every form a rule accepts or refuses. */
const samples = [
  '1',
  '0',
  'true',
  'false',
  'yes',
  'on',
  '60',
  '65535',
  '-1',
  '1e3',
  'abc',
  'sandbox',
  'production',
  'http://127.0.0.1:8000',
  'https://sqs.example.com/1/q',
  'a'.repeat(300),
  Buffer.alloc(32).toString('base64'),
];

function outcome(setting: Setting<unknown>, variable: string, raw: string): unknown {
  try {
    return { value: setting.read(variable, raw) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

describe('one rule per variable', () => {
  const byVariable = new Map<string, [string, Setting<unknown>][]>();
  for (const [kind, spec] of Object.entries(kinds)) {
    for (const [variable, setting] of Object.entries(spec)) {
      byVariable.set(variable, [...(byVariable.get(variable) ?? []), [kind, setting]]);
    }
  }
  const shared = [...byVariable].filter(([, readers]) => readers.length > 1);

  it('has variables read by more than one kind of process', () => {
    expect(shared.map(([variable]) => variable)).toEqual(
      expect.arrayContaining([
        'WEBHOOK_ALLOW_PRIVATE_TARGETS',
        'STAGE',
        'AUTH_CACHE_SECONDS',
        'LOCAL_STATE_DIR',
      ]),
    );
  });

  it.each(shared)('every process reads a set %s the same way', (variable, readers) => {
    const [[, first], ...others] = readers as [[string, Setting<unknown>], ...[string, Setting<unknown>][]];
    for (const raw of samples) {
      const expected = outcome(first, variable, raw);
      for (const [kind, setting] of others) {
        expect({ kind, raw, outcome: outcome(setting, variable, raw) }).toEqual({
          kind,
          raw,
          outcome: expected,
        });
      }
    }
  });
});
