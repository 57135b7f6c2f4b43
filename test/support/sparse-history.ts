import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { newId } from '../../functions/domain/ids';
import { EventType, invoicePaidEvent, invoiceSentEvent } from '../../functions/domain/invoice';
import { DeliveryStatus, newDelivery } from '../../functions/domain/webhook-delivery';
import { deleteWebhookEndpoint, newWebhookEndpoint } from '../../functions/domain/webhook-endpoint';
import { documentClient, tableName } from '../../functions/store/client';
import { buildPutEvent } from '../../functions/store/events';
import { buildPutNewInvoice } from '../../functions/store/invoices';
import { buildPutPayment } from '../../functions/store/payments';
import { mapWithConcurrency } from '../../functions/store/reads';
import { buildPutNewDelivery } from '../../functions/store/webhook-deliveries';
import { buildDeleteEndpoint, buildPutNewEndpoint } from '../../functions/store/webhook-endpoints';
import { invoiceIn } from './domain-invoice';
import { sandboxCardPayment } from './sandbox-charges';

/*
 * A merchant's history under every filter of the lists (docs/decisions/keys-for-every-filter.md): for
 * each, one match, the oldest, and `history` newer items of its kind that do not match, written as the
 * store writes them. `test/e2e/sparse-filters.test.ts` counts a page's commands on it and the bench's
 * filters section measures pages at two sizes of it.
 */

/** Writes items as they are, 25 to a request, a few requests at once. */
export async function putAll(items: readonly Record<string, unknown>[]): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let index = 0; index < items.length; index += 25) chunks.push(items.slice(index, index + 25) as never);
  await mapWithConcurrency(chunks, 4, async (chunk) => {
    let requests = chunk.map((Item) => ({ PutRequest: { Item } }));
    while (requests.length > 0) {
      const { UnprocessedItems } = await documentClient().send(
        new BatchWriteCommand({ RequestItems: { [tableName()]: requests } }),
      );
      requests = (UnprocessedItems?.[tableName()] ?? []) as typeof requests;
    }
  });
}

/** `count` items made by `make`, oldest first: ids minted in order are time-ordered. */
function many<T>(count: number, make: (index: number) => T): T[] {
  return Array.from({ length: count }, (_, index) => make(index));
}

const now = () => new Date().toISOString();

/** One filter of one list: its seeding (the match first, then the history) and its request. */
export interface SparseFilter {
  readonly seed: () => Promise<{ path: string; query: Record<string, string>; matchId: string }>;
  readonly idOf: (item: any) => string;
}

/** The filters of the lists, each seeding `history` items under `merchantId` when asked. */
export function sparseFilters(merchantId: string, history: number): Record<string, SparseFilter> {
  const customer = newId('cust');
  const otherCustomer = newId('cust');

  const invoicesOf = (status: 'draft' | 'issued', customerId: string) => {
    const invoiceId = newId('inv');
    return buildPutNewInvoice(
      invoiceIn(status, 1000, 0, { invoiceId, merchantId, customerId, invoiceUrlSlug: newId('inv') }),
      'Sparse Co',
    ).Put.Item;
  };

  const paymentOf = (customerId: string, declined: boolean) =>
    buildPutPayment(sandboxCardPayment(merchantId, customerId, declined)).Put.Item;

  /** An invoice's InvoicePaid, then `history` newer resends of it (InvoiceSent). */
  const paidAfterResends = async () => {
    const invoice = invoiceIn('paid', 1000, 1000, { invoiceId: newId('inv'), merchantId, paidAt: now() });
    const match = buildPutEvent(invoicePaidEvent(invoice, newId('evt')), 'req').Put.Item;
    const sent = () => buildPutEvent(invoiceSentEvent(invoice, true, newId('evt'), now()), 'req').Put.Item;
    await putAll([match, ...many(history, sent)]);
    return { invoice, match };
  };

  return {
    'invoices by status': {
      seed: async () => {
        const match = invoicesOf('draft', customer);
        await putAll([match, ...many(history, () => invoicesOf('issued', otherCustomer))]);
        return { path: '/invoices', query: { status: 'draft' }, matchId: String(match.invoiceId) };
      },
      idOf: (item) => item.invoiceId,
    },
    'invoices by customer': {
      seed: async () => {
        const mine = newId('cust');
        const match = invoicesOf('draft', mine);
        await putAll([match, ...many(history, () => invoicesOf('issued', otherCustomer))]);
        return { path: '/invoices', query: { customerId: mine }, matchId: String(match.invoiceId) };
      },
      idOf: (item) => item.invoiceId,
    },
    'invoices by customer and status': {
      seed: async () => {
        const mine = newId('cust');
        const match = invoicesOf('draft', mine);
        await putAll([match, ...many(history, () => invoicesOf('issued', mine))]);
        return {
          path: '/invoices',
          query: { customerId: mine, status: 'draft' },
          matchId: String(match.invoiceId),
        };
      },
      idOf: (item) => item.invoiceId,
    },
    'payments by status': {
      seed: async () => {
        const match = paymentOf(customer, true);
        await putAll([match, ...many(history, () => paymentOf(customer, false))]);
        return { path: '/payments', query: { status: 'declined' }, matchId: String(match.paymentId) };
      },
      idOf: (item) => item.paymentId,
    },
    'payments by customer': {
      seed: async () => {
        const mine = newId('cust');
        const match = paymentOf(mine, false);
        await putAll([match, ...many(history, () => paymentOf(otherCustomer, false))]);
        return { path: '/payments', query: { customerId: mine }, matchId: String(match.paymentId) };
      },
      idOf: (item) => item.paymentId,
    },
    'payments by customer and status': {
      seed: async () => {
        const mine = newId('cust');
        const match = paymentOf(mine, true);
        await putAll([match, ...many(history, () => paymentOf(mine, false))]);
        return {
          path: '/payments',
          query: { customerId: mine, status: 'declined' },
          matchId: String(match.paymentId),
        };
      },
      idOf: (item) => item.paymentId,
    },
    'events by type': {
      seed: async () => {
        const { match } = await paidAfterResends();
        return { path: '/events', query: { type: EventType.invoicePaid }, matchId: String(match.eventId) };
      },
      idOf: (item) => item.eventId,
    },
    'events by object': {
      seed: async () => {
        const invoice = invoiceIn('issued', 1000, 0, { invoiceId: newId('inv'), merchantId });
        const other = invoiceIn('issued', 1000, 0, { invoiceId: newId('inv'), merchantId });
        const match = buildPutEvent(invoiceSentEvent(invoice, false, newId('evt'), now()), 'req').Put.Item;
        const sent = () => buildPutEvent(invoiceSentEvent(other, true, newId('evt'), now()), 'req').Put.Item;
        await putAll([match, ...many(history, sent)]);
        return { path: '/events', query: { objectId: invoice.invoiceId }, matchId: String(match.eventId) };
      },
      idOf: (item) => item.eventId,
    },
    'events by object and type': {
      seed: async () => {
        const { invoice, match } = await paidAfterResends();
        return {
          path: '/events',
          query: { objectId: invoice.invoiceId, type: EventType.invoicePaid },
          matchId: String(match.eventId),
        };
      },
      idOf: (item) => item.eventId,
    },
    'deliveries by status': {
      seed: async () => {
        const endpoint = newWebhookEndpoint({
          webhookEndpointId: newId('whk'),
          merchantId,
          url: 'https://hooks.example.com/sparse',
          eventTypes: [EventType.invoiceSent],
          now: now(),
        });
        const delivery = (status: DeliveryStatus) => {
          const made = newDelivery({
            webhookDeliveryId: newId('whkdel'),
            webhookEndpointId: endpoint.webhookEndpointId,
            merchantId,
            eventId: newId('evt'),
            eventType: EventType.invoiceSent,
            data: {},
            paused: false,
            now: now(),
          });
          return buildPutNewDelivery({ ...made, status, attemptCount: 1 }, made.createdAt, []).Item;
        };
        const match = delivery(DeliveryStatus.exhausted);
        await putAll([
          ...buildPutNewEndpoint(endpoint, 'sealed').map((write) => write.Put.Item),
          match,
          ...many(history, () => delivery(DeliveryStatus.succeeded)),
        ]);
        return {
          path: `/merchants/${merchantId}/webhook-endpoints/${endpoint.webhookEndpointId}/deliveries`,
          query: { status: DeliveryStatus.exhausted },
          matchId: String(match.webhookDeliveryId),
        };
      },
      idOf: (item) => item.webhookDeliveryId,
    },
    'live webhook endpoints among deleted ones': {
      seed: async () => {
        const endpointAt = () =>
          newWebhookEndpoint({
            webhookEndpointId: newId('whk'),
            merchantId,
            url: 'https://hooks.example.com/sparse',
            eventTypes: [EventType.invoiceSent],
            now: now(),
          });
        const live = endpointAt();
        // Each deleted as the route deletes one: the endpoint's item gives way to a record of the deletion.
        const deleted = many(history, () => {
          const endpoint = endpointAt();
          const stored = {
            endpoint,
            sealedSigningSecret: 'sealed',
            deliveryShards: [],
            subscribedSince: {},
            version: 1,
          };
          return buildDeleteEndpoint(stored, deleteWebhookEndpoint(endpoint, now())).flatMap((write) =>
            'Put' in write ? [write.Put.Item] : [],
          );
        });
        await putAll([
          ...buildPutNewEndpoint(live, 'sealed').map((write) => write.Put.Item),
          ...deleted.flat(),
        ]);
        return {
          path: `/merchants/${merchantId}/webhook-endpoints`,
          query: {},
          matchId: live.webhookEndpointId,
        };
      },
      idOf: (item) => item.webhookEndpointId,
    },
  };
}

/** The filters' names, in the order they are measured. */
export const sparseFilterNames: readonly string[] = Object.keys(sparseFilters('', 0));
