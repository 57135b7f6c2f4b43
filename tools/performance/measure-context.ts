import type { BenchContext } from '../bench/bench-context';
import type { DynamoDbLocalTarget } from '../local/dynamodb-local';

/**
 * What the models' measurements run against: a DynamoDB Local and the key of its database, the CA
 * whose `localhost` certificate the webhook receiver serves (trusted by this process), progress for
 * the terminal, and the registry of what a stop must end.
 */
export type MeasureContext = Pick<BenchContext, 'caDir' | 'progress' | 'onStop'> & {
  readonly dynamodb: DynamoDbLocalTarget;
};
