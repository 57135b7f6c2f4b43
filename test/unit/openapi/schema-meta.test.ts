import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { list } from '../../../functions/validation/list';
import { rule } from '../../../functions/validation/rule';
import { documented, schemaMeta } from '../../../functions/validation/schema-meta';
import { text } from '../../../functions/validation/text';

const jsonOf = (schema: z.ZodMiniType) => {
  const { $schema: _schema, ...json } = z.toJSONSchema(schema, { metadata: schemaMeta, io: 'input' });
  return json;
};

describe('JSON Schema of our checks', () => {
  it('publishes the keywords a rule declares beside its base schema', () => {
    const Colours = rule(list(z.enum(['red', 'blue']), { min: 1 }), () => undefined, {
      keywords: { uniqueItems: true },
    });
    const Patch = rule(z.strictObject({ a: z.optional(text()), b: z.optional(text()) }), () => undefined, {
      keywords: { minProperties: 1, dependentRequired: { a: ['b'] } },
    });
    expect(jsonOf(Colours)).toMatchObject({ minItems: 1, uniqueItems: true });
    expect(jsonOf(Patch)).toMatchObject({
      additionalProperties: false,
      minProperties: 1,
      dependentRequired: { a: ['b'] },
    });
  });

  it('writes a refused pattern as not: {pattern}', () => {
    const Url = rule(text(), () => undefined, {
      keywords: { pattern: '^https:', not: { pattern: '\\.local$' } },
    });
    const Key = text({ pattern: /^[a-z]+$/, notPattern: /^constructor$/ });
    expect(jsonOf(Url)).toEqual({ type: 'string', pattern: '^https:', not: { pattern: '\\.local$' } });
    expect(jsonOf(Key)).toEqual({ type: 'string', pattern: '^[a-z]+$', not: { pattern: '^constructor$' } });
  });

  it('refuses a rule keyword its base schema already declares, which would hide one of the two', () => {
    expect(() => rule(text({ pattern: /^a/ }), () => undefined, { keywords: { pattern: 'b$' } })).toThrow(
      /both declare "pattern"/,
    );
  });

  it('states a trimmed minimum of 1 as a non-whitespace character and the trimming in words', () => {
    expect(jsonOf(text({ trim: true, min: 1, max: 200 }))).toEqual({
      type: 'string',
      minLength: 1,
      maxLength: 200,
      pattern: '\\S',
      description: 'Surrounding whitespace is removed; 1 to 200 characters must remain.',
    });
  });

  it('documents a copy, leaving the original and its validation as they were', () => {
    const Name = text({ max: 3 });
    const Documented = documented(Name, { description: 'A name.', example: 'Ana' });
    expect(schemaMeta.get(Documented)).toEqual({ maxLength: 3, description: 'A name.', example: 'Ana' });
    expect(schemaMeta.get(Name)).toEqual({ maxLength: 3 });
    expect(z.safeParse(Documented, 'Anabel').success).toBe(false);
  });
});
