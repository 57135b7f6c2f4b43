import { z } from 'zod';
import { Stage } from '../../functions/config';
import { publicRateLimit } from '../constructs/public-rate-limit';

const flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no', ''])
  .default('')
  .transform((value) => ['1', 'true', 'on', 'yes'].includes(value));

/** The local runtime's settings (DESIGN §5), read from the environment and checked once. */
export const LocalSettings = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  STAGE: z.enum(Stage).default('sandbox'),
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(900).default(60),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(10_000),
  AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag,
  /** Requests per minute per client address to the public pay routes (the stack's web ACL allows as many). */
  PUBLIC_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(publicRateLimit.requests),
  /** Where runtime.json and the persisted table live; the admin CLI's --local reads the same. */
  LOCAL_STATE_DIR: z.string().min(1).optional(),
});

export type LocalSettings = z.infer<typeof LocalSettings>;

/** Parses the environment; a bad value is one line naming the variable, not a stack trace. */
export function readLocalSettings(env: NodeJS.ProcessEnv): LocalSettings {
  const parsed = LocalSettings.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new Error(`Invalid local runtime settings: ${problems.join('; ')}`);
}
