import { describe, expect, it } from 'vitest';
import { CreateProductBody } from '../../../functions/api/catalog/schemas';
import { detailsOf } from '../../../functions/http/validation';
import { safeParse } from '../../../functions/schema';

describe('detailsOf', () => {
  it('gives one entry per problem, naming unknown fields by their own path', () => {
    const parsed = safeParse(CreateProductBody, { merchantId: 'x', name: '', extra: 1, other: 2 });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const paths = detailsOf(parsed.issues, 'body').map((detail) => detail.path);
    expect(paths.sort()).toEqual(['extra', 'merchantId', 'name', 'other']);
  });

  it('names the location when the whole value is wrong', () => {
    const parsed = safeParse(CreateProductBody, undefined);
    if (parsed.success) throw new Error('expected a failure');
    expect(detailsOf(parsed.issues, 'body')).toEqual([{ path: 'body', message: 'body is required.' }]);
  });
});
