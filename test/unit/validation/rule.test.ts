import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { list } from '../../../functions/validation/list';
import { rule } from '../../../functions/validation/rule';
import { text } from '../../../functions/validation/text';
import { problemsOf } from './parse';

const unique = (values: readonly string[]) =>
  new Set(values).size === values.length ? undefined : 'must not repeat a value.';
const Colours = rule(list(z.enum(['red', 'blue']), { min: 3, max: 4 }), unique);

const codesOf = (schema: z.ZodMiniType, value: unknown) =>
  problemsOf(schema, value).map(({ code, path }) => `${path.join('.')}: ${code}`);

describe('rule', () => {
  it('runs after a bound problem, so both are reported', () => {
    expect(codesOf(Colours, ['red', 'red'])).toEqual([': too_small', ': custom']);
  });

  it('does not run on an array over its maximum, whose items were never checked', () => {
    expect(codesOf(Colours, ['red', 'red', 'red', 'red', 'red'])).toEqual([': too_big']);
  });

  it('does not run after a value of the wrong type or outside its set', () => {
    expect(codesOf(Colours, ['green', 'green', 'green'])).toEqual([
      '0: invalid_value',
      '1: invalid_value',
      '2: invalid_value',
    ]);
    expect(codesOf(Colours, 'red')).toEqual([': invalid_type']);
  });

  it('runs beside unknown fields and lists its problem under the field it names', () => {
    const Range = rule(
      z.strictObject({ from: z.optional(text()), to: z.optional(text()) }),
      (range) =>
        range.from !== undefined && range.to !== undefined && range.from > range.to
          ? 'must not be after to.'
          : undefined,
      { at: 'from' },
    );
    expect(codesOf(Range, { from: 'b', to: 'a', extra: 1 })).toEqual([': unrecognized_keys', 'from: custom']);
    expect(z.safeParse(Range, { from: 'a', to: 'b' })).toMatchObject({
      success: true,
      data: { from: 'a', to: 'b' },
    });
  });
});
