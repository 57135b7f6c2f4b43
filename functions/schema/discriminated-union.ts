import type { Infer, InferInput, Issue, Path, Schema } from './schema';
import type { ObjectSchema } from './strict-object';

/**
 * One of several object forms, chosen by the literal value of one field. A missing or unknown
 * value is one problem on that field; the chosen form then reports its own.
 */
export function discriminatedUnion<const O extends readonly ObjectSchema[]>(
  discriminator: string,
  options: O,
): Schema<Infer<O[number]>, InferInput<O[number]>> {
  const forms = new Map<unknown, Schema>();
  for (const option of options) {
    const field = option.shape[discriminator]?.node;
    if (field?.kind !== 'literal') throw new Error(`Every form needs a literal "${discriminator}"`);
    forms.set(field.value, option);
  }
  return {
    node: { kind: 'union', discriminator, options },
    run: (value: unknown, path: Path, issues: Issue[]) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        issues.push({ code: 'invalid_type', expected: 'object', input: value, path });
        return value;
      }
      const input = (value as Record<string, unknown>)[discriminator];
      const form = forms.get(input);
      if (form !== undefined) return form.run(value, path, issues);
      issues.push({
        code: 'invalid_value',
        values: [...forms.keys()],
        input,
        path: [...path, discriminator],
      });
      return value;
    },
  };
}
