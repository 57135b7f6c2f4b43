import { z } from 'zod';

export const Stage = { sandbox: 'sandbox', production: 'production' } as const;
export type Stage = (typeof Stage)[keyof typeof Stage];

/** The environment every Lambda function of the stack (and the local runtime) is given. */
export const FunctionEnvironment = z.object({
  TABLE_NAME: z.string().min(1),
  STAGE: z.enum(Stage),
  /** Set only by the local runtime and the tests, to reach DynamoDB Local. */
  DYNAMODB_ENDPOINT: z.url().optional(),
  AUTH_CACHE_SECONDS: z.coerce.number().int().min(0).default(60),
  /** The KMS key that seals webhook signing secrets (set by the stack). */
  SECRETS_KEY_ID: z.string().min(1).optional(),
  /** Local runtime only (DESIGN §5): webhook URLs may name loopback, for a receiver on this machine. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** The delivery queue the router and the reconciler write to. */
  DELIVERY_QUEUE_URL: z.string().min(1).optional(),
  /** Spec "Delivery and retries": 60 s between attempts, 10 s response timeout. */
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(900).default(60),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).max(60_000).default(10_000),
  /** The local runtime's stand-in for KMS: 32 bytes, base64. Never set in AWS. */
  LOCAL_SECRETS_KEY: z.string().min(1).optional(),
});

export type FunctionEnvironment = z.infer<typeof FunctionEnvironment>;

let cached: FunctionEnvironment | undefined;

/** Parsed once per container; a missing or malformed variable fails the cold start loudly. */
export function functionEnvironment(): FunctionEnvironment {
  cached ??= FunctionEnvironment.parse(process.env);
  return cached;
}

/** For tests and the local runtime, which change the environment inside one process. */
export function resetFunctionEnvironment(): void {
  cached = undefined;
}
