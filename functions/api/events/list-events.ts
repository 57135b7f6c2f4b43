import { eventRecordOf } from '../../domain/event-record';
import { httpHandler } from '../../http/http-handler';
import { type EventLogCursor, queryEvents } from '../../store/events';
import { cursorScope, pageResponse, startKeyOf } from '../pagination';
import { eventRoutes } from './routes';

/**
 * Newest first, across the merchant's write shards; a cursor is bound to the merchant and every
 * filter. Expired events are never listed, whether or not DynamoDB has deleted them yet.
 */
export const handler = httpHandler(eventRoutes.listEvents, async ({ query, route, merchantShards, now }) => {
  const { merchantId, limit, cursor, ...filters } = query;
  const scope = cursorScope(merchantId, route.operationId, filters);
  const startKey = await startKeyOf(cursor, scope);
  const position =
    startKey === undefined ? undefined : ({ position: String(startKey.position) } as EventLogCursor);
  const page = await queryEvents(merchantId, merchantShards, filters, limit, position, now);
  return { status: 200, body: await pageResponse(page, scope, eventRecordOf) };
});
