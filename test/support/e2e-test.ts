import { expect, test } from 'vitest';
import type { LocalSettings } from '../../tools/local/settings';
import { type HttpsReceiver, type HttpsReceiverOptions, startHttpsReceiver } from './https-receiver';
import type { InvoiceRefs } from './invoice-requests';
import { invoiceFixtures } from './invoices';
import { newKey, startTestRuntime, type TestRuntime, type TestRuntimeOptions } from './local-runtime';

/**
 * What the webhook files run with: loopback receivers are allowed only in the local runtime, and 1 s
 * between attempts keeps a retry short.
 */
export const webhookSettings = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
  WEBHOOK_RETRY_DELAY_SECONDS: 1,
} as const satisfies Partial<LocalSettings>;

/** Starts HTTPS receivers for one file and closes every one of them when the file is done. */
export interface Receivers {
  start(options?: HttpsReceiverOptions): Promise<HttpsReceiver>;
}

/** The runtime merchant's webhook endpoints, made and removed through the API. */
export interface Endpoints {
  /** Subscribes `url` to `eventTypes`; returns the endpoint's id and signing secret. */
  subscribe(url: string, eventTypes: readonly string[]): Promise<{ id: string; secret: string }>;
  /** Deletes every endpoint, so later events reach no receiver of an earlier test. */
  deleteAll(): Promise<void>;
}

export interface E2eFixtures {
  /** The local runtime of the file, started on first use and stopped when the file is done. */
  t: TestRuntime;
  /** A customer, an active product and a USD price of the runtime merchant. */
  refs: Awaited<ReturnType<typeof invoiceFixtures>>;
  receivers: Receivers;
  /** One receiver answering 200 to every request (`respondWith` changes that). */
  receiver: HttpsReceiver;
  endpoints: Endpoints;
}

/**
 * The e2e test API: file-scoped fixtures for the local runtime and the HTTPS receivers a webhook
 * test sends to, each set up on first use (in a `beforeAll` or a test) and torn down after the
 * file's last test. `settings` and `options` are the runtime's, as `startTestRuntime` takes them.
 */
export function e2eTest(settings: Partial<LocalSettings> = {}, options: TestRuntimeOptions = {}) {
  return (
    test
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads what a fixture needs from this pattern.
      .extend('t', { scope: 'file' }, async ({}, { onCleanup }) => {
        const runtime = await startTestRuntime(settings, options);
        onCleanup(() => runtime.stop());
        return runtime;
      })
      .extend('refs', { scope: 'file' }, ({ t }) => invoiceFixtures(t.api, t.merchantId))
      // biome-ignore lint/correctness/noEmptyPattern: vitest reads what a fixture needs from this pattern.
      .extend('receivers', { scope: 'file' }, async ({}, { onCleanup }): Promise<Receivers> => {
        const started: HttpsReceiver[] = [];
        onCleanup(async () => {
          await Promise.all(started.map((receiver) => receiver.close()));
        });
        return {
          start: async (receiverOptions) => {
            const receiver = await startHttpsReceiver(receiverOptions);
            started.push(receiver);
            return receiver;
          },
        };
      })
      .extend('receiver', { scope: 'file' }, ({ receivers }) => receivers.start())
      .extend('endpoints', { scope: 'file' }, ({ t }) => endpointsOf(t))
  );
}

/**
 * The file's runtime and its merchant, for the module-level helpers of a file made by `e2eFile`:
 * bound in a `beforeAll` before the file's first test. A worker runs its files one after another,
 * and each file binds them again, so while a file runs these are its own.
 */
export let t: TestRuntime;
export let merchantId: string;
/** The `refs` fixture of a file made by `e2eInvoiceFile`, bound beside `t` and `merchantId`. */
export let refs: InvoiceRefs;

/** `e2eTest` that binds `t` and `merchantId` of this module to the file's runtime before its first test. */
export function e2eFile(settings: Partial<LocalSettings> = {}, options: TestRuntimeOptions = {}) {
  const test = e2eTest(settings, options);
  test.beforeAll(({ t: runtime }) => {
    [t, merchantId] = [runtime, runtime.merchantId];
  });
  return test;
}

/** `e2eFile` that binds `refs` too, for files that make invoices or payments from module-level helpers. */
export function e2eInvoiceFile(settings: Partial<LocalSettings> = {}, options: TestRuntimeOptions = {}) {
  const test = e2eFile(settings, options);
  test.beforeAll(({ refs: made }) => {
    refs = made;
  });
  return test;
}

function endpointsOf(t: TestRuntime): Endpoints {
  const path = `/merchants/${t.merchantId}/webhook-endpoints`;
  return {
    subscribe: async (url, eventTypes) => {
      const result = await t.api('POST', path, { body: { url, eventTypes }, idempotencyKey: newKey() });
      expect(result.status, JSON.stringify(result.body)).toBe(201);
      return { id: result.body.webhookEndpointId as string, secret: result.body.signingSecret as string };
    },
    deleteAll: async () => {
      const listed = await t.api('GET', path, { query: { limit: 100 } });
      for (const endpoint of listed.body.items) {
        await t.api('DELETE', `${path}/${endpoint.webhookEndpointId}`, { idempotencyKey: newKey() });
      }
    },
  };
}
