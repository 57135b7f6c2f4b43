import { isExpired } from '../../domain/retention';
import { deliveryView } from '../../domain/webhook-delivery';
import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getEventItem, queryEventDeliveries } from '../../store/events';
import { toDelivery } from '../../store/webhook-deliveries';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { visibleEvent } from './event-view';
import { eventRoutes } from './routes';

/**
 * The event's deliveries, newest first, in one Query: a delivery names its merchant and expires
 * with its event, so a page with items proves the event is the caller's and kept. Only a first page
 * without items reads the event, to tell "no deliveries" (200) from 404.
 */
export const handler = httpHandler(eventRoutes.listEventDeliveries, async ({ params, query, route, now }) => {
  const { merchantId, limit, cursor } = query;
  const scope = cursorScope(merchantId, route.operationId, { eventId: params.eventId });
  const startKey = await startKeyOf(cursor, scope);
  const page = await queryEventDeliveries(params.eventId, limit, startKey);
  const notFound = () => new NotFoundError('The event does not exist.');
  if (page.items.some((item) => item.merchantId !== merchantId || isExpired(item, now))) throw notFound();
  if (page.items.length === 0 && startKey === undefined) {
    if (visibleEvent(await getEventItem(params.eventId), merchantId, now) === undefined) throw notFound();
  }
  return {
    status: 200,
    body: await pageResponse(page, scope, (item) => deliveryView(toDelivery(item))),
  };
});
