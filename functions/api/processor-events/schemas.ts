import * as z from 'zod/mini';
import { ProcessorEventOutcome } from '../../domain/processor-event';
import { integer } from '../../validation/integer';
import { documented } from '../../validation/schema-meta';
import { text } from '../../validation/text';

/**
 * A Stripe `Event` object as Stripe sends it: the fields the service reads, and every other field
 * Stripe adds, kept (an event is Stripe's, not ours to refuse for a field we do not know).
 */
export const StripeEventBody = documented(
  z.looseObject({
    id: documented(
      text({ pattern: /^evt_[A-Za-z0-9]+$/, patternMessage: 'must be a Stripe event id, evt_….' }),
      {
        example: 'evt_1QmDx2AbCdEfGhIjKlMnOpQr',
      },
    ),
    object: z.literal('event'),
    type: text({ min: 1, max: 255 }),
    created: integer({ min: 0, max: 9_999_999_999 }),
    data: z.looseObject({ object: z.looseObject({}) }),
  }),
  {
    id: 'StripeEvent',
    description:
      "A Stripe event, exactly as Stripe sent it: the `Stripe-Signature` header signs these bytes with the platform's " +
      'Connect webhook secret. Only Stripe calls this route.',
  },
);

export const StripeEventReceipt = documented(
  z.strictObject({
    received: z.literal(true),
    eventId: text(),
    outcome: documented(z.enum(ProcessorEventOutcome), {
      description:
        '`applied`: it changed an account or made a payment; `duplicate`: already received; `stale`: older than ' +
        'what was applied; `unknown_account`: no merchant linked its account; `unknown_object`: it names a ' +
        'payment or invoice the service never made; `recorded`: a type not mapped. All are 200.',
    }),
  }),
  { id: 'StripeEventReceipt' },
);
