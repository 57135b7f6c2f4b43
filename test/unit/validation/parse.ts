import * as z from 'zod/mini';
import { issueMessage } from '../../../functions/http/validation-messages';

/** A schema's problems as code and path, in the order zod reports them. */
export function problemsOf(schema: z.ZodMiniType, value: unknown): { code: string; path: PropertyKey[] }[] {
  const parsed = z.safeParse(schema, value);
  return parsed.success ? [] : parsed.error.issues.map(({ code, path }) => ({ code, path }));
}

/** A schema's problems in our wording, as the validation middleware words a body's. */
export function messagesOf(schema: z.ZodMiniType, value: unknown): string[] {
  const parsed = z.safeParse(schema, value, { error: (issue) => issueMessage(issue, 'body') });
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}
