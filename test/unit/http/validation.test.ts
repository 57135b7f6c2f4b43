import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { CreateProductBody } from '../../../functions/api/catalog/schemas';
import { detailsOf } from '../../../functions/http/validation';
import { issueMessage } from '../../../functions/http/validation-messages';

const parseBody = (value: unknown) =>
  z.safeParse(CreateProductBody, value, { error: (issue) => issueMessage(issue, 'body') });

describe('detailsOf', () => {
  it('gives one entry per problem, naming unknown fields by their own path', () => {
    const parsed = parseBody({ merchantId: 'x', name: '', extra: 1, other: 2 });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const paths = detailsOf(parsed.error.issues, 'body').map((detail) => detail.path);
    expect(paths.sort()).toEqual(['extra', 'merchantId', 'name', 'other']);
  });

  it('names the location when the whole value is wrong', () => {
    const parsed = parseBody(undefined);
    if (parsed.success) throw new Error('expected a failure');
    expect(detailsOf(parsed.error.issues, 'body')).toEqual([{ path: 'body', message: 'body is required.' }]);
  });
});
