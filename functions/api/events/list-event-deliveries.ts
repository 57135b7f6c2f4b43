import { isExpired } from '../../domain/retention';
import { deliveryView } from '../../domain/webhook-delivery';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { queryEventDeliveries, toDelivery } from '../../store/webhook-deliveries';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { eventRoutes } from './routes';

/**
 * The event's deliveries, newest first, in one Query of the event-deliveries index. Every delivery
 * names its merchant and expires with its event, so a page is the caller's only when each of its
 * deliveries is; a first page without any is the caller's only when the event's own entry (the
 * only item then) is. Another merchant's, an unknown or an expired event is a 404.
 */
export const handler = httpHandler(eventRoutes.listEventDeliveries, async ({ params, query, route, now }) => {
  const { merchantId, limit, cursor } = query;
  // Bound to the index it pages, so a cursor of the pointer pages that came before is a 400, not a 500.
  const scope = cursorScope(merchantId, route.operationId, { eventId: params.eventId, index: 'GSI5' });
  const startKey = await startKeyOf(cursor, scope);
  const { event, deliveries } = await queryEventDeliveries(params.eventId, limit, startKey);
  const visible = (item: Record<string, unknown>) => item.merchantId === merchantId && !isExpired(item, now);
  // A first page without deliveries is proved by the event's own entry, the only item it read.
  const proof = deliveries.items.length === 0 && startKey === undefined ? [event] : deliveries.items;
  if (!proof.every((item) => item !== undefined && visible(item)))
    throw new NotFoundError('The event does not exist.');
  return {
    status: 200,
    body: await pageResponse(deliveries, scope, (item) => deliveryView(toDelivery(item))),
  };
});
