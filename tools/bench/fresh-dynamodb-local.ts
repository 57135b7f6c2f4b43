import { type DynamoDbLocalTarget, startDynamoDbLocal } from '../local/dynamodb-local';
import type { BenchContext } from './bench-context';

/**
 * The one DynamoDB Local of an `npm run bench` or `npm run soak` run: in memory, stopped with the
 * run. Its port is open to the network like every DynamoDB Local's, so its database is the one of a
 * random key made for this instance (docs/decisions/local-runtime.md#who-can-reach-the-local-table),
 * and what it returns is that key beside the endpoint, for every client of the run.
 */
export async function startFreshDynamoDbLocal(
  context: Pick<BenchContext, 'progress' | 'onStop'>,
): Promise<DynamoDbLocalTarget> {
  context.progress('starting DynamoDB Local (in memory)');
  const dynamodb = await startDynamoDbLocal({ inMemory: true });
  context.onStop(() => dynamodb.stop());
  return dynamodb;
}
