import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import * as z from 'zod/mini';

/**
 * The bare function plus what the design has every route carry and none of this service's code: a
 * Powertools logger, a middy chain and a zod/mini body schema of the usual kinds (a strict object,
 * an id pattern, a bounded integer, an enum, a list of objects, an optional default). The bench
 * reports its import CPU against the bare function's in the same run, so the share of a route's
 * budget the named libraries take is a figure, not an estimate (`docs/performance.md#bundle-budgets`).
 */
export const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));

const logger = new Logger({ serviceName: 'library-floor' });

const Line = z.strictObject({
  description: z.string().check(z.minLength(1), z.maxLength(500)),
  quantity: z.int().check(z.minimum(1), z.maximum(1_000_000)),
});

const Body = z.strictObject({
  merchantId: z.string().check(z.regex(/^mer_[0-9a-hjkmnp-tv-z]{26}$/)),
  currency: z.enum(['usd', 'eur', 'gbp']),
  lines: z.array(Line).check(z.minLength(1), z.maxLength(100)),
  note: z.optional(z.string().check(z.maxLength(500))),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(100)), 20),
});

export const handler = middy<{ body?: string }, { statusCode: number }>().handler(async (event) => {
  const parsed = Body.safeParse(JSON.parse(event.body ?? '{}'));
  logger.info('parsed', { valid: parsed.success });
  return { statusCode: parsed.success ? 200 : 400 };
});
