import { isExpired } from '../../domain/retention';
import { deliveryView } from '../../domain/webhook-delivery';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { deliveriesOfPointers, queryEventDeliveryPointers } from '../../store/event-deliveries';
import { toDelivery } from '../../store/webhook-deliveries';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { visibleEvent } from './event-view';
import { eventRoutes } from './routes';

/**
 * The event's deliveries, newest first: one Query of the event's partition (the event and its
 * delivery pointers), one BatchGetItem of the page's deliveries. A first page holds the event,
 * which proves it is the caller's and kept; every pointer names its merchant and expires with its
 * event, so a later page (its cursor bound to merchant and event) is checked by its pointers.
 */
export const handler = httpHandler(eventRoutes.listEventDeliveries, async ({ params, query, route, now }) => {
  const { merchantId, limit, cursor } = query;
  const scope = cursorScope(merchantId, route.operationId, { eventId: params.eventId });
  const startKey = await startKeyOf(cursor, scope);
  const { event, pointers } = await queryEventDeliveryPointers(params.eventId, limit, startKey);
  const notFound = () => new NotFoundError('The event does not exist.');
  if (startKey === undefined && visibleEvent(event, merchantId, now) === undefined) throw notFound();
  if (pointers.items.some((item) => item.merchantId !== merchantId || isExpired(item, now))) throw notFound();
  const page = { items: await deliveriesOfPointers(pointers.items), lastKey: pointers.lastKey };
  return { status: 200, body: await pageResponse(page, scope, (item) => deliveryView(toDelivery(item))) };
});
