import { describe, expect, it } from 'vitest';
import { array, enumOf, optional, refine, safeParse, strictObject, string } from '../../../functions/schema';

const unique = (values: readonly string[]) =>
  new Set(values).size === values.length ? undefined : 'must not repeat a value.';
const Colours = refine(array(enumOf(['red', 'blue']), { min: 3, max: 4 }), unique);

const messagesOf = (result: ReturnType<typeof safeParse>) =>
  result.success ? [] : result.issues.map((issue) => `${issue.path.join('.')}: ${issue.code}`);

describe('refine', () => {
  it('runs after a bound problem, so both are reported', () => {
    expect(messagesOf(safeParse(Colours, ['red', 'red']))).toEqual([': too_small', ': custom']);
  });

  it('does not run on an array over its maximum, whose items were never checked', () => {
    expect(messagesOf(safeParse(Colours, ['red', 'red', 'red', 'red', 'red']))).toEqual([': too_big']);
  });

  it('does not run after a value of the wrong type or outside its set', () => {
    expect(messagesOf(safeParse(Colours, ['green', 'green', 'green']))).toEqual([
      '0: invalid_value',
      '1: invalid_value',
      '2: invalid_value',
    ]);
    expect(messagesOf(safeParse(Colours, 'red'))).toEqual([': invalid_type']);
  });

  it('runs beside unknown fields and lists its problem under the field it names', () => {
    const Range = refine(
      strictObject({ from: optional(string()), to: optional(string()) }),
      (range) =>
        range.from !== undefined && range.to !== undefined && range.from > range.to
          ? 'must not be after to.'
          : undefined,
      { at: 'from' },
    );
    expect(messagesOf(safeParse(Range, { from: 'b', to: 'a', extra: 1 }))).toEqual([
      ': unrecognized_keys',
      'from: custom',
    ]);
    expect(safeParse(Range, { from: 'a', to: 'b' })).toEqual({ success: true, data: { from: 'a', to: 'b' } });
  });
});
