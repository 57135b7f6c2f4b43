import { createHash } from 'node:crypto';
import { merchantShardOfId } from '../domain/merchant-shards';

/**
 * Every key of the single table is built here (DESIGN §2). Items carry `entityType`, so a stream
 * consumer or an operator reading the table can tell them apart without parsing keys.
 */
export const EntityType = {
  merchant: 'Merchant',
  apiKey: 'ApiKey',
  product: 'Product',
  price: 'Price',
  customer: 'Customer',
  invoice: 'Invoice',
  invoiceNumberCounter: 'InvoiceNumberCounter',
  invoiceSlug: 'InvoiceSlug',
  event: 'Event',
  webhookEndpoint: 'WebhookEndpoint',
  webhookEndpointCounter: 'WebhookEndpointCounter',
  webhookDelivery: 'WebhookDelivery',
  webhookDeliveriesMarker: 'WebhookDeliveriesMarker',
  webhookDeliverySequence: 'WebhookDeliverySequence',
  webhookRecovery: 'WebhookRecovery',
  webhookRecoveryLock: 'WebhookRecoveryLock',
  payment: 'Payment',
  refund: 'Refund',
  payout: 'Payout',
  idempotencyRecord: 'IdempotencyRecord',
  config: 'Config',
} as const;

export type EntityType = (typeof EntityType)[keyof typeof EntityType];

/** Partition of stage-wide configuration items; readers may create items here and nowhere else. */
export const configPartitionKey = 'CONFIG';

/** How a merchant's partitions (its own and its shards') begin: what an IAM condition on them names. */
export const merchantPartitionPrefix = 'MERCHANT#';

const merchantPartition = (merchantId: string) => `${merchantPartitionPrefix}${merchantId}`;

/**
 * Shard 0 is the merchant's own partition; shards 1 … 15 hold the payments, refunds, invoices and
 * payouts minted for them (`merchant-shards`), each id naming its shard.
 */
const merchantShardPartition = (merchantId: string, shard: number) =>
  shard === 0 ? merchantPartition(merchantId) : `${merchantPartition(merchantId)}#S${shard}`;
const partitionOfId = (merchantId: string, id: string) =>
  merchantShardPartition(merchantId, merchantShardOfId(id));

/** Shard 0 is an endpoint's original deliveries partition; shards 1 … n−1 were added by raises. */
const deliveriesPartition = (webhookEndpointId: string, shard: number) =>
  shard === 0 ? `DELIVERIES#${webhookEndpointId}` : `DELIVERIES#${webhookEndpointId}#S${shard}`;
/** A status list has a partition per shard, like the invoices it lists. */
const invoicesWithStatusPartition = (merchantId: string, status: string, shard: number) =>
  `${merchantShardPartition(merchantId, shard)}#INVOICES#${status}`;
const invoicesOfCustomerPartition = (merchantId: string, customerId: string) =>
  `${merchantPartition(merchantId)}#CUSTOMER#${customerId}#INVOICES`;

/**
 * Shards of the due-deliveries index (GSI1): a waiting delivery's index entry lands in one of them,
 * as does a running recovery's (`keys.recoveryNudge`), so no partition is written by every
 * merchant. 16 lifts the ceiling of one partition (~1,000 writes/s) sixteenfold while a full read
 * of the index stays 16 Queries.
 */
export const dueDeliveryShardCount = 16;

/**
 * The shard of a delivery (or a recovery), from a hash of its id: always the same one, so each
 * later write of it moves its entry within that shard. SHA-256 spreads the time-ordered ids evenly.
 */
export function dueDeliveryShard(id: string): number {
  return createHash('sha256').update(id).digest().readUInt32BE(0) % dueDeliveryShardCount;
}

const dueDeliveriesPartition = (shard: number) => `DUE_DELIVERIES#${String(shard).padStart(2, '0')}`;

/** An entry of the due index (GSI1) for the item with this id, due at `dueAt`, in the shard of its id. */
const dueIndexEntry = (dueAt: string, id: string) => ({
  GSI1PK: dueDeliveriesPartition(dueDeliveryShard(id)),
  GSI1SK: `${dueAt}#${id}`,
});

/**
 * The single partition every waiting delivery was written to before the index was sharded. Readers
 * still look in it, so an entry written before the change is found until its delivery's next write
 * moves it to its shard.
 */
const legacyDueDeliveriesPartition = 'DUE_DELIVERIES';

const webhookDeliveriesMarkerSortKey = 'ENDPOINT';

/**
 * The event log's partitions. A merchant's events, all of them (GSI1) or of one type (GSI2), sit in
 * the write shard of the object they are about, as that object's own items do; an object's events
 * have one partition (GSI4), since an object has few. Each sorts by `<createdAt>#<eventId>`.
 */
const eventsPartition = (merchantId: string, shard: number) =>
  `${merchantShardPartition(merchantId, shard)}#EVENTS`;
const eventsOfTypePartition = (merchantId: string, eventType: string, shard: number) =>
  `${merchantShardPartition(merchantId, shard)}#EVENTS#${eventType}`;
const eventsOfObjectPartition = (merchantId: string, objectId: string) =>
  `${merchantPartition(merchantId)}#OBJECT#${objectId}#EVENTS`;
const eventPartition = (eventId: string) => `EVENT#${eventId}`;
const eventSortKey = 'EVENT';
const eventLogPosition = (createdAt: string, eventId: string) => `${createdAt}#${eventId}`;

export const SortKeyPrefix = {
  product: 'PRODUCT#',
  price: 'PRICE#',
  customer: 'CUSTOMER#',
  invoice: 'INVOICE#',
  webhookEndpoint: 'WEBHOOK_ENDPOINT#',
  webhookDeliverySequence: 'WEBHOOK_DELIVERY_SEQUENCE#',
  webhookDelivery: 'DELIVERY#',
  payment: 'PAYMENT#',
  refund: 'REFUND#',
  payout: 'PAYOUT#',
  invoicePayment: 'INVOICE_PAYMENT#',
} as const;

export const keys = {
  merchant: (merchantId: string) => ({ PK: merchantPartition(merchantId), SK: 'MERCHANT' }),
  /** API keys are looked up by the key id embedded in the bearer token, without a merchant. */
  apiKey: (keyId: string) => ({ PK: `APIKEY#${keyId}`, SK: 'APIKEY' }),
  apiKeyOfMerchant: (merchantId: string, createdAt: string, keyId: string) => ({
    GSI1PK: `${merchantPartition(merchantId)}#APIKEYS`,
    GSI1SK: `${createdAt}#${keyId}`,
  }),
  apiKeysOfMerchantPartition: (merchantId: string) => `${merchantPartition(merchantId)}#APIKEYS`,
  product: (merchantId: string, productId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.product}${productId}`,
  }),
  /** Prices sort under their product, so one Query lists a product's prices. */
  price: (merchantId: string, productId: string, priceId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.price}${productId}#${priceId}`,
  }),
  pricesOfProductPrefix: (productId: string) => `${SortKeyPrefix.price}${productId}#`,
  customer: (merchantId: string, customerId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.customer}${customerId}`,
  }),
  invoice: (merchantId: string, invoiceId: string) => ({
    PK: partitionOfId(merchantId, invoiceId),
    SK: `${SortKeyPrefix.invoice}${invoiceId}`,
  }),
  /** An out-of-band payment's record, beside its invoice in the invoice's shard. */
  invoicePayment: (merchantId: string, invoiceId: string, paymentRecordId: string) => ({
    PK: partitionOfId(merchantId, invoiceId),
    SK: `${SortKeyPrefix.invoicePayment}${invoiceId}#${paymentRecordId}`,
  }),
  /** GSI1: a merchant's invoices of one status; GSI2: a customer's invoices. Both newest first. */
  invoiceIndexes: (merchantId: string, customerId: string, status: string, invoiceId: string) => ({
    GSI1PK: invoicesWithStatusPartition(merchantId, status, merchantShardOfId(invoiceId)),
    GSI1SK: invoiceId,
    GSI2PK: invoicesOfCustomerPartition(merchantId, customerId),
    GSI2SK: invoiceId,
  }),
  invoicesWithStatusPartition: (merchantId: string, status: string, shard: number) =>
    invoicesWithStatusPartition(merchantId, status, shard),
  invoicesOfCustomerPartition: (merchantId: string, customerId: string) =>
    invoicesOfCustomerPartition(merchantId, customerId),
  /** The per-merchant invoice number sequence, advanced inside each create transaction. */
  invoiceNumberCounter: (merchantId: string) => ({
    PK: merchantPartition(merchantId),
    SK: 'COUNTER#INVOICE_NUMBER',
  }),
  /** Pay-link lookup by the SHA-256 of the slug, never by the slug itself (DESIGN §4). */
  invoiceSlug: (slugHash: string) => ({ PK: `INVOICE_SLUG#${slugHash}`, SK: 'INVOICE_SLUG' }),
  /** GSI3: the invoice itself by the SHA-256 of its current slug, found by a pay link in one Query. */
  invoiceBySlug: (slugHash: string) => ({ GSI3PK: `INVOICE_SLUG#${slugHash}` }),
  event: (eventId: string) => ({ PK: eventPartition(eventId), SK: eventSortKey }),
  /**
   * The event log's entries of an event: GSI1 the merchant's events, GSI2 those of its type, both in
   * the shard of its object (shard 0 without one); GSI4 its object's events.
   */
  eventIndexes: (event: {
    merchantId: string;
    eventType: string;
    eventId: string;
    createdAt: string;
    objectId: string | null;
  }) => {
    const shard = event.objectId === null ? 0 : merchantShardOfId(event.objectId);
    const position = eventLogPosition(event.createdAt, event.eventId);
    return {
      GSI1PK: eventsPartition(event.merchantId, shard),
      GSI1SK: position,
      GSI2PK: eventsOfTypePartition(event.merchantId, event.eventType, shard),
      GSI2SK: position,
      ...(event.objectId === null
        ? {}
        : { GSI4PK: eventsOfObjectPartition(event.merchantId, event.objectId), GSI4SK: position }),
    };
  },
  eventsPartition,
  eventsOfTypePartition,
  eventsOfObjectPartition,
  eventLogPosition,
  eventPartition,
  eventSortKey,
  webhookEndpoint: (merchantId: string, webhookEndpointId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.webhookEndpoint}${webhookEndpointId}`,
  }),
  /**
   * The last number of an endpoint's delivery sequence, advanced in the transaction that writes
   * its deliveries. In the merchant's partition, where it sorts just before the endpoints, so the
   * router's one Query of the endpoints (`SK` from this prefix to the endpoints') reads it too.
   */
  webhookDeliverySequence: (merchantId: string, webhookEndpointId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `${SortKeyPrefix.webhookDeliverySequence}${webhookEndpointId}`,
  }),
  /** A bulk recovery of an endpoint's exhausted deliveries, in its merchant's partition. */
  webhookRecovery: (merchantId: string, recoveryId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `WEBHOOK_RECOVERY#${recoveryId}`,
  }),
  /**
   * Held by an endpoint's running recovery, from its start to its last batch: at most one runs per
   * endpoint, as a start's condition that no lock exists decides.
   */
  webhookRecoveryLock: (merchantId: string, webhookEndpointId: string) => ({
    PK: merchantPartition(merchantId),
    SK: `WEBHOOK_RECOVERY_RUNNING#${webhookEndpointId}`,
  }),
  /** How many endpoints of the merchant are not deleted; guards the limit of 20 under concurrency. */
  webhookEndpointCounter: (merchantId: string) => ({
    PK: merchantPartition(merchantId),
    SK: 'COUNTER#WEBHOOK_ENDPOINTS',
  }),
  /**
   * An endpoint's deliveries, newest first by their time-ordered ids, in the partition of their
   * shard (`deliveryShardOf`).
   */
  webhookDelivery: (webhookEndpointId: string, webhookDeliveryId: string, shard: number) => ({
    PK: deliveriesPartition(webhookEndpointId, shard),
    SK: `${SortKeyPrefix.webhookDelivery}${webhookDeliveryId}`,
  }),
  deliveriesPartition,
  /** The shard a deliveries partition key names: the inverse of `deliveriesPartition`. */
  shardOfDeliveriesPartition: (partition: string): number => {
    const suffix = /#S(\d+)$/.exec(partition);
    return suffix === null ? 0 : Number(suffix[1]);
  },
  /**
   * The endpoint's marker in shard 0: `ENDPOINT` sorts above every `DELIVERY#…`, so a newest-first
   * Query of the partition returns it first, then the newest deliveries.
   */
  webhookDeliveriesMarker: (webhookEndpointId: string) => ({
    PK: deliveriesPartition(webhookEndpointId, 0),
    SK: webhookDeliveriesMarkerSortKey,
  }),
  webhookDeliveriesMarkerSortKey,
  /**
   * GSI1 of a delivery that waits for an attempt (pending, not paused), in its shard, sorted by
   * when it is due: the reconciler reads the overdue ones. Sparse: finished and paused deliveries
   * carry no GSI1 key.
   */
  dueDelivery: dueIndexEntry,
  /**
   * GSI1 of a running recovery's record, beside the waiting deliveries in the shard of its id: when
   * the reconciler nudges it unless a batch writes the record first. Readers of the index tell it
   * from a delivery by its `entityType`. Sparse: a completed or canceled recovery carries none.
   */
  recoveryNudge: dueIndexEntry,
  /** Every partition a waiting delivery's GSI1 entry may be in: each shard, then the legacy one. */
  dueDeliveriesPartitions: (): readonly string[] => [
    ...Array.from({ length: dueDeliveryShardCount }, (_, shard) => dueDeliveriesPartition(shard)),
    legacyDueDeliveriesPartition,
  ],
  legacyDueDeliveriesPartition,
  payment: (merchantId: string, paymentId: string) => ({
    PK: partitionOfId(merchantId, paymentId),
    SK: `${SortKeyPrefix.payment}${paymentId}`,
  }),
  /**
   * Refunds sort under their payment, in its shard, so one Query lists a payment's refunds. Their
   * own ids stay UUIDv7: the payment's id names the shard.
   */
  refund: (merchantId: string, paymentId: string, refundId: string) => ({
    PK: partitionOfId(merchantId, paymentId),
    SK: `${SortKeyPrefix.refund}${paymentId}#${refundId}`,
  }),
  refundsOfPaymentPrefix: (paymentId: string) => `${SortKeyPrefix.refund}${paymentId}#`,
  payout: (merchantId: string, payoutId: string) => ({
    PK: partitionOfId(merchantId, payoutId),
    SK: `${SortKeyPrefix.payout}${payoutId}`,
  }),
  merchantPartition,
  merchantShardPartition,
  /** The partition a payment's refunds (or any item kept beside it) are in. */
  partitionOfId,
  /** The scope hash already folds merchant, method, path and key together (DESIGN §3). */
  idempotencyRecord: (scopeHash: string) => ({ PK: `IDEMPOTENCY#${scopeHash}`, SK: 'IDEMPOTENCY' }),
  cursorSigningKey: () => ({ PK: configPartitionKey, SK: 'CURSOR_SIGNING_KEY' }),
} as const;
