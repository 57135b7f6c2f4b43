import { describe, expect, it } from 'vitest';
import { array, enumOf, optional, refine, safeParse, strictObject, string } from '../../../functions/schema';
import { toJsonSchema } from '../../../lib/openapi/json-schema';

const inline = () => undefined;

describe('toJsonSchema', () => {
  it('publishes the keywords a refine rule declares beside its base schema', () => {
    const Colours = refine(array(enumOf(['red', 'blue']), { min: 1 }), () => undefined, {
      keywords: { uniqueItems: true },
    });
    const Patch = refine(strictObject({ a: optional(string()), b: optional(string()) }), () => undefined, {
      keywords: { minProperties: 1, dependentRequired: { a: ['b'] } },
    });
    expect(toJsonSchema(Colours, 'input', inline)).toMatchObject({ minItems: 1, uniqueItems: true });
    expect(toJsonSchema(Patch, 'input', inline)).toMatchObject({
      additionalProperties: false,
      minProperties: 1,
      dependentRequired: { a: ['b'] },
    });
  });

  it('writes a refused pattern as not: {pattern}', () => {
    const Url = refine(string(), () => undefined, {
      keywords: { pattern: /^https:/, notPattern: /\.local$/ },
    });
    const Key = string({ pattern: /^[a-z]+$/, notPattern: /^constructor$/ });
    expect(toJsonSchema(Url, 'input', inline)).toEqual({
      type: 'string',
      pattern: '^https:',
      not: { pattern: '\\.local$' },
    });
    expect(toJsonSchema(Key, 'input', inline)).toEqual({
      type: 'string',
      pattern: '^[a-z]+$',
      not: { pattern: '^constructor$' },
    });
  });

  it('refuses a rule keyword its base schema already declares, which would hide one of the two', () => {
    const Twice = refine(string({ pattern: /^a/ }), () => undefined, { keywords: { pattern: /b$/ } });
    expect(() => toJsonSchema(Twice, 'input', inline)).toThrow(/both declare "pattern"/);
  });

  it('states a trimmed minimum of 1 as a non-whitespace character and the trimming in words', () => {
    expect(toJsonSchema(string({ trim: true, min: 1, max: 200 }), 'input', inline)).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      description: 'Surrounding whitespace is removed; 1 to 200 characters must remain.',
    });
  });
});

describe('string notPattern', () => {
  it('refuses a value matching it, as one missing the pattern is refused', () => {
    const Key = string({ pattern: /^[a-z_]+$/, notPattern: /^__proto__$/, patternMessage: 'must be a key.' });
    expect(safeParse(Key, 'name').success).toBe(true);
    expect(safeParse(Key, '__proto__')).toMatchObject({
      success: false,
      issues: [{ message: 'must be a key.' }],
    });
    expect(safeParse(Key, 'Name')).toMatchObject({ success: false, issues: [{ message: 'must be a key.' }] });
  });
});
