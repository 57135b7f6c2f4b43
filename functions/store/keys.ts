/**
 * Every key of the single table is built here (DESIGN §2). Items carry `entityType`, so a stream
 * consumer or an operator reading the table can tell them apart without parsing keys.
 */
export const EntityType = {
  merchant: 'Merchant',
  apiKey: 'ApiKey',
  product: 'Product',
  idempotencyRecord: 'IdempotencyRecord',
  config: 'Config',
} as const;

export type EntityType = (typeof EntityType)[keyof typeof EntityType];

/** Partition of stage-wide configuration items; readers may create items here and nowhere else. */
export const configPartitionKey = 'CONFIG';

const merchantPartition = (merchantId: string) => `MERCHANT#${merchantId}`;

export const SortKeyPrefix = {
  product: 'PRODUCT#',
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
  merchantPartition,
  /** The scope hash already folds merchant, method, path and key together (DESIGN §3). */
  idempotencyRecord: (scopeHash: string) => ({ PK: `IDEMPOTENCY#${scopeHash}`, SK: 'IDEMPOTENCY' }),
  cursorSigningKey: () => ({ PK: configPartitionKey, SK: 'CURSOR_SIGNING_KEY' }),
} as const;
