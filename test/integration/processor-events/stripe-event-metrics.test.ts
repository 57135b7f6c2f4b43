import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/api/processor-events/receive-stripe-event';
import { resetFunctionEnvironment } from '../../../functions/config';
import { newId } from '../../../functions/domain/ids';
import { resetStripePlatform } from '../../../functions/payments/stripe/stripe-platform';
import { emfLine, lambdaEnvironment } from '../../support/emf';
import { printedJsonLinesDuring } from '../../support/printed-json-lines';
import {
  accountUpdatedEvent,
  activeStripeAccount,
  balanceAvailableEvent,
  stripeSignature,
  testStripeSecretKey,
  testStripeWebhookSecret,
} from '../../support/stripe-fixtures';
import { useFreshTable } from '../../support/table-environment';

/**
 * The webhook's handler as Lambda runs it, on a table of DynamoDB Local: what it writes for
 * production's alarms on Stripe's events (docs/operations.md).
 */
const saved = { ...process.env };

beforeEach(async () => {
  await useFreshTable();
  Object.assign(process.env, {
    ...lambdaEnvironment('MerchantPayments-production-receiveStripeEvent', 'production'),
    STRIPE_SECRET_KEY: testStripeSecretKey,
    STRIPE_WEBHOOK_SECRET: testStripeWebhookSecret,
  });
  resetFunctionEnvironment();
  resetStripePlatform();
});
afterAll(() => {
  process.env = saved;
  resetFunctionEnvironment();
  resetStripePlatform();
});

const context = { awsRequestId: 'aws-1', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

function request(body: string, signature: string | undefined): APIGatewayProxyEvent {
  return {
    httpMethod: 'POST',
    path: '/processors/stripe/events',
    resource: '/processors/stripe/events',
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { 'stripe-signature': signature }),
    },
    queryStringParameters: null,
    pathParameters: null,
    body,
    isBase64Encoded: false,
    requestContext: { requestId: `req-${newId('evt')}`, stage: 'production' },
  } as unknown as APIGatewayProxyEvent;
}

/** What one request to the webhook answered, and the EMF lines it wrote. */
async function delivered(body: string, signature: string | undefined) {
  let status = 0;
  const lines = await printedJsonLinesDuring(async () => {
    status = (await handler(request(body, signature), context)).statusCode;
  });
  return {
    status,
    emf: lines.filter((line) => '_aws' in line),
    warnings: lines.filter((line) => line.level === 'WARN'),
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

const processed = (late: number, unknown: number) =>
  emfLine(
    'production',
    [
      { Name: 'StripeSignatureFailures', Unit: 'Count' },
      { Name: 'StripeEventsLate', Unit: 'Count' },
      { Name: 'StripeEventsUnknown', Unit: 'Count' },
    ],
    { StripeSignatureFailures: 0, StripeEventsLate: late, StripeEventsUnknown: unknown },
  );

describe('POST /processors/stripe/events in Lambda', () => {
  it('counts a request whose signature does not verify, or that has none, and answers 400 as before', async () => {
    const body = JSON.stringify(balanceAvailableEvent(newId('evt'), 'acct_1', nowSeconds()));
    const failure = emfLine('production', [{ Name: 'StripeSignatureFailures', Unit: 'Count' }], {
      StripeSignatureFailures: 1,
    });
    const wrongSecret = await delivered(body, stripeSignature(body, { secret: 'whsec_someoneelse' }));
    expect({ status: wrongSecret.status, emf: wrongSecret.emf }).toEqual({ status: 400, emf: [failure] });
    const unsigned = await delivered(body, undefined);
    expect({ status: unsigned.status, emf: unsigned.emf }).toEqual({ status: 400, emf: [failure] });
  });

  it('counts a verified event as on time, late past 15 minutes, and unknown for an account no merchant linked', async () => {
    const onTime = JSON.stringify(balanceAvailableEvent(newId('evt'), 'acct_1', nowSeconds() - 60));
    expect(await delivered(onTime, stripeSignature(onTime))).toMatchObject({
      status: 200,
      emf: [processed(0, 0)],
      warnings: [],
    });

    const lateId = newId('evt');
    const late = JSON.stringify(balanceAvailableEvent(lateId, 'acct_1', nowSeconds() - 20 * 60));
    const lateAnswer = await delivered(late, stripeSignature(late));
    expect(lateAnswer).toMatchObject({ status: 200, emf: [processed(1, 0)] });
    expect(lateAnswer.warnings).toEqual([
      expect.objectContaining({
        message: 'stripe event processed late',
        stripeEventId: lateId,
        ageSeconds: expect.any(Number),
        outcome: 'recorded',
      }),
    ]);
    expect(lateAnswer.warnings[0]?.ageSeconds).toBeGreaterThanOrEqual(20 * 60);

    // A repeat of the late event, as a replay sends it: a duplicate, late again.
    expect(await delivered(late, stripeSignature(late))).toMatchObject({
      status: 200,
      emf: [processed(1, 0)],
    });

    const account = activeStripeAccount('acct_nobodys');
    const unknown = JSON.stringify(
      accountUpdatedEvent(newId('evt'), { ...account, metadata: { merchantId: newId('mer') } }, nowSeconds()),
    );
    expect(await delivered(unknown, stripeSignature(unknown))).toMatchObject({
      status: 200,
      emf: [processed(0, 1)],
    });
  });
});
