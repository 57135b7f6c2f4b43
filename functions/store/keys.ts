import { catalogKeys } from './catalog';
import { customerKeys } from './customers';
import { eventKeys } from './events';
import { idempotencyKeys } from './idempotency';
import { emailKeys } from './invoice-emails';
import { invoiceKeys } from './invoices';
import { merchantKeys } from './merchants';
import { paymentKeys } from './payments';
import {
  deliveriesPartition,
  dueDeliveriesPartitions,
  merchantPartition,
  merchantShardPartition,
  partitionOfId,
  shardOfDeliveriesPartition,
} from './table';
import { deliveryKeys } from './webhook-deliveries';
import { destinationKeys } from './webhook-destinations';
import { endpointKeys } from './webhook-endpoints';
import { recoveryKeys } from './webhook-recoveries';

export {
  configPartitionKey,
  dueDeliveryShard,
  dueDeliveryShardCount,
  EntityType,
  merchantPartitionPrefix,
  SortKeyPrefix,
} from './table';

/**
 * Every key of the table in one object, for the code that addresses items of any kind: the admin
 * CLI, the benches and the tests that check the table. Each entity's module builds its own items'
 * keys and uses only those; a function imports the module of what it stores, never this index,
 * so its bundle carries no other entity's code.
 */
export const keys = {
  merchantPartition,
  merchantShardPartition,
  partitionOfId,
  deliveriesPartition,
  shardOfDeliveriesPartition,
  dueDeliveriesPartitions,
  ...merchantKeys,
  ...catalogKeys,
  ...customerKeys,
  ...invoiceKeys,
  ...paymentKeys,
  ...eventKeys,
  ...endpointKeys,
  ...deliveryKeys,
  ...recoveryKeys,
  ...destinationKeys,
  ...idempotencyKeys,
  ...emailKeys,
} as const;
