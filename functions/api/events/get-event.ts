import { NotFoundError } from '../../http/errors';
import { httpHandler } from '../../http/http-handler';
import { getEventItem } from '../../store/events';
import { visibleEvent } from './event-view';
import { eventRoutes } from './routes';

/** One event with the data its deliveries carry; another merchant's or an expired one is a 404. */
export const handler = httpHandler(eventRoutes.getEvent, async ({ params, query, now }) => {
  const event = visibleEvent(await getEventItem(params.eventId), query.merchantId, now);
  if (event === undefined) throw new NotFoundError('The event does not exist.');
  return { status: 200, body: event };
});
