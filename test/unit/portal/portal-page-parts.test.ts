import { describe, expect, it } from 'vitest';
import { successRefreshMs } from '../../../functions/domain/endpoint-health';
import { EventType } from '../../../functions/domain/invoice';
import { EventTypes, type WebhookDelivery } from '../../../functions/portal/page/api-types';
import { inListOrder } from '../../../functions/portal/page/delivery-order';
import { lastSucceededAtLagMs, lastSuccess } from '../../../functions/portal/page/last-success';
import { exchangeProblem, LinkProblem, linkMessage } from '../../../functions/portal/page/link-messages';
import { placeOf, searchOf } from '../../../functions/portal/page/portal-context';
import { apiUrl, portalLocation } from '../../../functions/portal/page/portal-location';
import {
  type DeliveryOutcome,
  recentDeliveries,
  SuccessWindow,
  successRate,
  successRateSummary,
} from '../../../functions/portal/page/success-rate';
import { displayedDuration, displayedTime } from '../../../functions/portal/page/time-format';

const now = new Date('2025-03-04T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3600_000).toISOString();

describe('portalLocation', () => {
  it('reads the base path of a deployed stage and the session id', () => {
    expect(portalLocation('/sandbox/portal/psn_01h455vb4pex5vsknk084sn02q')).toEqual({
      basePath: '/sandbox',
      portalSessionId: 'psn_01h455vb4pex5vsknk084sn02q',
    });
  });

  it('reads an empty base path where the page sits at the root (local runtime, custom domain)', () => {
    expect(portalLocation('/portal/psn_x')).toEqual({ basePath: '', portalSessionId: 'psn_x' });
  });

  it('is undefined for a path that is not a portal page', () => {
    expect(portalLocation('/portal/')).toBeUndefined();
    expect(portalLocation('/portal/a/b')).toBeUndefined();
    expect(portalLocation('/pay')).toBeUndefined();
    expect(portalLocation('/portal/%E0%A4%A')).toBeUndefined();
  });

  it('builds API URLs under the base path, leaving out absent query values', () => {
    expect(apiUrl('/production', '/events', { merchantId: 'mer_1', cursor: undefined, type: 'a b' })).toBe(
      '/production/events?merchantId=mer_1&type=a+b',
    );
    expect(apiUrl('', '/portal/exchange')).toBe('/portal/exchange');
  });
});

describe('displayedTime', () => {
  it('shows the time in the given zone, naming the zone, with the UTC time as its title', () => {
    expect(displayedTime('2025-03-04T13:05:09.123Z', { timeZone: 'Europe/Berlin', locale: 'en-US' })).toEqual(
      {
        text: 'Mar 4, 2025, 2:05:09 PM GMT+1',
        title: '2025-03-04 13:05:09 UTC',
      },
    );
    expect(displayedTime('2025-03-04T13:05:09.123Z', { timeZone: 'UTC', locale: 'en-US' }).text).toBe(
      'Mar 4, 2025, 1:05:09 PM UTC',
    );
  });

  it('shows an unreadable time as it came', () => {
    expect(displayedTime('yesterday')).toEqual({ text: 'yesterday', title: 'yesterday' });
  });

  it('shows durations in milliseconds below a second, else in seconds', () => {
    expect([85, 999, 1200, 9_960, 12_400].map(displayedDuration)).toEqual([
      '85 ms',
      '999 ms',
      '1.2 s',
      '10.0 s',
      '12 s',
    ]);
  });
});

describe('successRate', () => {
  const delivery = (status: DeliveryOutcome['status'], hours: number, test?: true): DeliveryOutcome => ({
    status,
    createdAt: hoursAgo(hours),
    ...(test ? { test } : {}),
  });

  it('counts the last 24 hours only, leaves out test deliveries, and rates finished deliveries', () => {
    const rate = successRate(
      [
        delivery('succeeded', 1),
        delivery('succeeded', 2),
        delivery('succeeded', 23.9),
        delivery('exhausted', 3),
        delivery('pending', 0.1),
        delivery('exhausted', 0.5, true),
        delivery('exhausted', 24.1),
      ],
      now,
    );
    expect(rate).toEqual({ succeeded: 3, failed: 1, pending: 1, rate: 0.75, complete: true });
    expect(successRateSummary(rate)).toBe(
      '75% of 4 finished deliveries succeeded in the last 24 hours; 1 still being tried.',
    );
  });

  it('has no rate when nothing of the window finished', () => {
    const rate = successRate([delivery('pending', 1)], now);
    expect(rate.rate).toBeUndefined();
    expect(successRateSummary(rate)).toBe('No finished delivery in the last 24 hours; 1 still being tried.');
  });

  it('says it counted only the latest deliveries when the page cap stopped it', () => {
    const rate = successRate([delivery('succeeded', 1)], now, false);
    expect(successRateSummary(rate)).toBe(
      '100% of 1 finished delivery succeeded in the latest 500 deliveries.',
    );
  });
});

describe('recentDeliveries', () => {
  const pageOf = (hours: number[], nextCursor?: string) => ({
    items: hours.map((h) => ({ status: 'succeeded' as const, createdAt: hoursAgo(h) })),
    page: nextCursor === undefined ? { hasMore: false } : { hasMore: true, nextCursor },
  });

  it('pages newest first until a delivery is older than the window', async () => {
    const asked: (string | undefined)[] = [];
    const pages: Record<string, ReturnType<typeof pageOf>> = {
      first: pageOf([1, 2], 'second'),
      second: pageOf([3, 25], 'third'),
    };
    const result = await recentDeliveries(async (cursor) => {
      asked.push(cursor);
      return pages[cursor ?? 'first'] as ReturnType<typeof pageOf>;
    }, now);
    expect(asked).toEqual([undefined, 'second']);
    expect(result.deliveries).toHaveLength(3);
    expect(result.complete).toBe(true);
  });

  it(`stops after ${SuccessWindow.maxPages} pages and says the count is incomplete`, async () => {
    let calls = 0;
    const result = await recentDeliveries(async () => {
      calls += 1;
      return pageOf([1], `page-${calls}`);
    }, now);
    expect(calls).toBe(SuccessWindow.maxPages);
    expect(result.complete).toBe(false);
  });
});

describe('link messages', () => {
  it.each([
    ['unauthorized', LinkProblem.invalidLink, 'This link is not valid'],
    ['validation_error', LinkProblem.invalidLink, 'This link is not valid'],
    ['portal_link_used', LinkProblem.used, 'This link was already used'],
    ['portal_session_expired', LinkProblem.expired, 'This portal session has expired'],
    ['portal_session_revoked', LinkProblem.revoked, 'This portal session was ended'],
    ['internal_error', LinkProblem.unavailable, 'The portal could not be opened'],
    [undefined, LinkProblem.unavailable, 'The portal could not be opened'],
  ])('turns the exchange code %s into %s', (code, problem, heading) => {
    expect(exchangeProblem(code)).toBe(problem);
    expect(linkMessage(problem).heading).toBe(heading);
  });

  it('has a message for a link without its token and for a session that ended', () => {
    expect(linkMessage(LinkProblem.noToken).heading).toBe('This link is incomplete');
    expect(linkMessage(LinkProblem.sessionEnded).heading).toBe('Your portal session has ended');
  });
});

describe('portal places', () => {
  it.each([
    [{ view: 'endpoints' } as const, '?'],
    [{ view: 'events' } as const, '?view=events'],
    [
      { view: 'endpoint', endpointId: 'whk_1', status: 'exhausted' } as const,
      '?endpoint=whk_1&status=exhausted',
    ],
    [{ view: 'event', eventId: 'evt_1' } as const, '?event=evt_1'],
    [
      { view: 'delivery', deliveryId: 'whkdel_1', eventId: 'evt_1', endpointId: 'whk_1' } as const,
      '?endpoint=whk_1&event=evt_1&delivery=whkdel_1',
    ],
  ])('keeps %o in the query %s and reads it back', (place, search) => {
    expect(searchOf(place)).toBe(search);
    expect(placeOf(search)).toEqual(place);
  });

  it('reads an unknown query as the endpoint list', () => {
    expect(placeOf('?delivery=whkdel_1')).toEqual({ view: 'endpoints' });
  });
});

describe('the event types the portal offers', () => {
  it('are the service’s event types', () => {
    expect([...EventTypes].sort()).toEqual(Object.values(EventType).sort());
  });
});

/** A delivery of the list, created at `createdAt`, numbered `sequence`. */
function listed(
  id: string,
  createdAt: string,
  sequence: number | null,
  fields: Partial<WebhookDelivery> = {},
) {
  return {
    webhookDeliveryId: id,
    webhookEndpointId: 'whk_1',
    eventId: 'evt_1',
    eventType: 'invoices.InvoiceSent',
    sequence,
    status: 'pending',
    attemptCount: 0,
    createdAt,
    lastAttemptAt: null,
    redeliveredFromId: null,
    attempts: [],
    ...fields,
  } satisfies WebhookDelivery;
}

describe('lastSuccess', () => {
  const succeeded = (id: string, at: string) =>
    listed(id, at, 1, { status: 'succeeded', attemptCount: 1, lastAttemptAt: at });

  it('is the endpoint’s lastSucceededAt, which may lag, when no listed delivery succeeded later', () => {
    const older = succeeded('whkdel_1', '2025-03-04T11:58:00.000Z');
    expect(lastSuccess('2025-03-04T11:59:00.000Z', [older])).toEqual({
      at: '2025-03-04T11:59:00.000Z',
      mayLag: true,
    });
    expect(lastSuccess('2025-03-04T11:59:00.000Z', [])).toEqual({
      at: '2025-03-04T11:59:00.000Z',
      mayLag: true,
    });
  });

  it('never reads older than a succeeded delivery listed under it', () => {
    const newer = succeeded('whkdel_2', '2025-03-04T12:02:30.000Z');
    const failedLater = listed('whkdel_3', '2025-03-04T12:03:00.000Z', 2, {
      status: 'exhausted',
      lastAttemptAt: '2025-03-04T12:07:00.000Z',
    });
    expect(lastSuccess('2025-03-04T11:59:00.000Z', [failedLater, newer])).toEqual({
      at: '2025-03-04T12:02:30.000Z',
      mayLag: false,
    });
  });

  it('is none while the endpoint has no success at its url, whatever succeeded before', () => {
    expect(lastSuccess(undefined, [succeeded('whkdel_1', '2025-03-04T11:58:00.000Z')])).toBeUndefined();
  });

  it('lags by at most what the service says of lastSucceededAt', () => {
    expect(lastSucceededAtLagMs).toBe(successRefreshMs);
  });
});

describe('inListOrder', () => {
  it('lists newest first by the second created, and within one second by sequence, highest first', () => {
    const deliveries = [
      listed('a', '2025-03-04T12:00:01.100Z', 7),
      listed('b', '2025-03-04T12:00:01.900Z', 5),
      listed('c', '2025-03-04T12:00:01.500Z', 6),
      listed('d', '2025-03-04T12:00:00.999Z', 4),
      listed('e', '2025-03-04T12:00:02.000Z', 8),
      listed('f', '2025-03-04T12:00:01.000Z', null),
    ];
    expect(inListOrder(deliveries).map((delivery) => delivery.webhookDeliveryId)).toEqual([
      'e',
      'a',
      'c',
      'b',
      'f',
      'd',
    ]);
    expect(deliveries[0]?.webhookDeliveryId).toBe('a');
  });
});
