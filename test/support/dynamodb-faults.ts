import {
  ProvisionedThroughputExceededException,
  ThrottlingException,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { routeInvocation } from '../../tools/local/gateway';
import { withDocumentClientMiddleware } from './dynamodb-commands';

/** What DynamoDB answers when a table or the account is over its throughput. */
export const throttled = {
  provisionedThroughput: () =>
    new ProvisionedThroughputExceededException({
      message: 'The level of configured provisioned throughput for the table was exceeded.',
      $metadata: { httpStatusCode: 400 },
    }),
  throttling: () =>
    new ThrottlingException({ message: 'Rate of requests exceeds the allowed throughput.', $metadata: {} }),
} as const;

/** A transaction cancelled because another one touched one of its items at the same moment. */
export function transactionConflict(itemCount = 2): TransactionCanceledException {
  return new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: Array.from({ length: itemCount }, (_, index) =>
      index === 0
        ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }
        : { Code: 'None' },
    ),
  });
}

export interface FaultPlan {
  /** Builds the error each faulted send throws. */
  readonly fault: () => Error;
  /** How many sends fail before the rest go through; `Infinity` fails them all. */
  readonly times: number;
  /** Command names to fault (`TransactWriteItemsCommand`); every command when absent. */
  readonly commands?: readonly string[];
}

/**
 * Runs `act` while the first `times` DynamoDB sends of route handlers fail with `fault`, each try of
 * the SDK's retry loop counting as a send. The delivery pipeline and the authorizer in the same
 * process are left alone, so only the request under test meets the fault. Resolves with what `act`
 * returned and the number of sends that failed, which proves the fault was met.
 */
export async function withDynamoDbFaults<T>(
  plan: FaultPlan,
  act: () => Promise<T>,
): Promise<{ result: T; faulted: number }> {
  let faulted = 0;
  const result = await withDocumentClientMiddleware(
    (next, context) => async (args) => {
      const applies =
        routeInvocation.getStore() !== undefined &&
        (plan.commands === undefined || plan.commands.includes(String(context.commandName)));
      if (applies && faulted < plan.times) {
        faulted += 1;
        throw plan.fault();
      }
      return next(args);
    },
    act,
    'deserialize',
  );
  return { result, faulted };
}
