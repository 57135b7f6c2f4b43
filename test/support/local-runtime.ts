import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { documentClient } from '../../functions/store/client';
import { createKey, createMerchant } from '../../tools/admin/operations';
import type { LocalDeliveryQueueOptions } from '../../tools/local/delivery-pipeline';
import type { DynamoDbLocalTarget } from '../../tools/local/dynamodb-local';
import { routeInvocation } from '../../tools/local/gateway';
import { type LocalRuntime, startLocalRuntime } from '../../tools/local/runtime';
import { type LocalSettings, readLocalSettings } from '../../tools/local/settings';
import { testDynamoDbTarget, writeTestDynamoDbKey } from './dynamodb';
import { documentClientCommandsDuring } from './dynamodb-commands';

export interface TestRuntime {
  readonly runtime: LocalRuntime;
  /** The runtime merchant's id (`runtime.merchantId`). */
  readonly merchantId: string;
  /** The runtime's LOCAL_STATE_DIR, for an admin CLI run with --local against it. */
  readonly stateDir: string;
  readonly api: ApiClient;
  /** Another merchant of the same stage, with its own key. */
  anotherMerchant(): Promise<{ merchantId: string; api: ApiClient }>;
  /** Every item of the runtime's table. */
  scanTable(): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

/** What a test may add to the runtime beyond its settings. */
export interface TestRuntimeOptions {
  readonly dynamodb?: DynamoDbLocalTarget;
  readonly onDispatcherBatch?: (event: SQSEvent) => void;
  readonly beforeRouting?: (event: DynamoDBStreamEvent) => Promise<void>;
  readonly deliveryQueue?: LocalDeliveryQueueOptions;
}

/**
 * The local runtime in this test process, on a free port, against the suite's DynamoDB Local (or
 * the one `dynamodb` names, with its key) and a table of its own. Requests go through the real
 * local gateway over HTTP.
 */
export async function startTestRuntime(
  settings: Partial<LocalSettings> = {},
  options: TestRuntimeOptions = {},
): Promise<TestRuntime> {
  const stateDir = await mkdtemp(join(tmpdir(), 'merchant-payments-runtime-'));
  // As `npm start` leaves its state folder, so the admin CLI's --local reaches the runtime's table.
  if (options.dynamodb === undefined) await writeTestDynamoDbKey(stateDir);
  const runtime = await startLocalRuntime({
    settings: readLocalSettings({ PORT: '0', ...stringValues(settings) }),
    inMemory: true,
    stateDir,
    dynamodb: options.dynamodb ?? testDynamoDbTarget(),
    tableName: `test-${randomUUID()}`,
    ...(options.onDispatcherBatch === undefined ? {} : { onDispatcherBatch: options.onDispatcherBatch }),
    ...(options.beforeRouting === undefined ? {} : { beforeRouting: options.beforeRouting }),
    ...(options.deliveryQueue === undefined ? {} : { deliveryQueue: options.deliveryQueue }),
  });
  return {
    runtime,
    merchantId: runtime.merchantId,
    stateDir,
    api: apiClient(runtime.baseUrl, runtime.apiKey),
    anotherMerchant: async () => {
      const merchant = await createMerchant('Another merchant');
      const key = await createKey(merchant.merchantId, runtime.stage);
      return { merchantId: merchant.merchantId, api: apiClient(runtime.baseUrl, key.apiKey) };
    },
    scanTable: async () => {
      const items: Record<string, unknown>[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await documentClient().send(
          new ScanCommand({
            TableName: runtime.tableName,
            ExclusiveStartKey: startKey,
            ConsistentRead: true,
          }),
        );
        items.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey !== undefined);
      return items;
    },
    stop: async () => {
      await runtime.stop();
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}

function stringValues(settings: Partial<LocalSettings>): Record<string, string> {
  return Object.fromEntries(Object.entries(settings).map(([name, value]) => [name, String(value)]));
}

export interface ApiResult {
  readonly status: number;
  readonly headers: Headers;
  readonly body: any;
  /** The body's length in bytes as the service sent it (set by `apiClient`). */
  readonly bodyBytes?: number;
}

export interface RequestOptions {
  readonly body?: unknown;
  /** Sent as is, for broken JSON and oversized bodies. */
  readonly rawBody?: string;
  readonly query?: Record<string, string | number>;
  readonly idempotencyKey?: string;
  readonly headers?: Record<string, string>;
  /** Replaces the Authorization header; `null` omits it. */
  readonly authorization?: string | null;
}

export type ApiClient = (method: string, path: string, options?: RequestOptions) => Promise<ApiResult>;

export function apiClient(baseUrl: string, apiKey: string): ApiClient {
  return async (method, path, options = {}) => {
    const url = new URL(path, baseUrl);
    for (const [name, value] of Object.entries(options.query ?? {}))
      url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...options.headers };
    const authorization = options.authorization === undefined ? `Bearer ${apiKey}` : options.authorization;
    if (authorization !== null) headers.Authorization = authorization;
    if (options.idempotencyKey !== undefined) headers['Idempotency-Key'] = options.idempotencyKey;
    const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
    const response = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : JSON.parse(text),
      bodyBytes: Buffer.byteLength(text),
    };
  };
}

/** The distinct fields a 400's details name, sorted (one field may fail more than one check). */
export function detailPaths(body: { error: { details?: { path: string }[] } }): string[] {
  return [...new Set((body.error.details ?? []).map((detail) => detail.path))].sort();
}

/** A fresh Idempotency-Key. */
export function newKey(): string {
  return `test-${randomUUID()}`;
}

/**
 * The DynamoDB commands route handlers sent while `act` runs, in order. The runtime's handlers share
 * this process's document client, so this counts exactly what a route costs (warm the authorizer
 * cache first); the delivery pipeline's reads and writes in the same process are left out.
 */
export function dynamoDbCommandsDuring(act: () => Promise<void>): Promise<string[]> {
  return documentClientCommandsDuring(act, () => routeInvocation.getStore() !== undefined);
}
