import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '../../../functions/domain/ids';
import { EventType } from '../../../functions/domain/invoice';
import { deleteWebhookEndpoint, newWebhookEndpoint } from '../../../functions/domain/webhook-endpoint';
import { documentClient } from '../../../functions/store/client';
import { sendTransaction } from '../../../functions/store/transaction';
import {
  buildAdvanceSequence,
  buildDeleteEndpoint,
  buildFanOutTargetsQuery,
  buildPutNewEndpoint,
  fanOutTargetsOf,
  getEndpoint,
} from '../../../functions/store/webhook-endpoints';
import { useFreshTable } from '../../support/table-environment';

beforeEach(async () => {
  await useFreshTable();
});

describe('buildDeleteEndpoint', () => {
  it('takes the endpoint and its sequence out of the range the router reads: it reads only live ones', async () => {
    const merchantId = newId('mer');
    const made = Array.from({ length: 3 }, () =>
      newWebhookEndpoint({
        webhookEndpointId: newId('whk'),
        merchantId,
        url: 'https://hooks.example.com/x',
        eventTypes: [EventType.invoiceSent],
        now: new Date().toISOString(),
      }),
    );
    for (const endpoint of made) {
      await sendTransaction([
        ...buildPutNewEndpoint(endpoint, 'sealed'),
        buildAdvanceSequence({ merchantId, webhookEndpointId: endpoint.webhookEndpointId, from: 0, to: 2 }),
      ]);
    }
    const [kept, ...gone] = made;
    for (const endpoint of gone) {
      const stored = await getEndpoint(merchantId, endpoint.webhookEndpointId);
      if (stored === undefined) throw new Error('the endpoint is missing');
      await sendTransaction(
        buildDeleteEndpoint(stored, deleteWebhookEndpoint(endpoint, new Date().toISOString())),
      );
    }

    const { Items, ScannedCount } = await documentClient().send(
      new QueryCommand(buildFanOutTargetsQuery(merchantId)),
    );
    expect(ScannedCount).toBe(2);
    expect(Items?.map((item) => item.webhookEndpointId)).toEqual([
      kept?.webhookEndpointId,
      kept?.webhookEndpointId,
    ]);
    const targets = await fanOutTargetsOf(merchantId);
    expect(targets.endpoints.map((stored) => stored.endpoint.webhookEndpointId)).toEqual([
      kept?.webhookEndpointId,
    ]);
    // A deleted endpoint reads as none: the routes answer 404, the dispatcher ends its deliveries.
    for (const endpoint of gone)
      expect(await getEndpoint(merchantId, endpoint.webhookEndpointId)).toBeUndefined();
  });
});
