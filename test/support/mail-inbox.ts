import { expect } from 'vitest';
import { createReconciler } from '../../functions/delivery/reconciler';
import { renderEndpointNotice } from '../../functions/email/endpoint-notice';
import { renderInvoiceEmail } from '../../functions/email/invoice-email';
import type { MailMessage } from '../../functions/email/mail-message';
import { createMailer, type SendEmail } from '../../functions/email/mailer';
import type { TestRuntime } from './local-runtime';
import { mailSettled } from './mail-settled';

/** One email as the runtime's local SES (`aws-ses-v2-local`) keeps it, as `GET /store` shows it. */
export interface InboxEmail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { html?: string; text?: string };
}

/** Every email the runtime's inbox holds to one of `addresses`. */
export async function inboxFor(t: TestRuntime, addresses: readonly string[]): Promise<InboxEmail[]> {
  const response = await fetch(new URL('store', t.runtime.mailInboxUrl));
  const { emails } = (await response.json()) as { emails: InboxEmail[] };
  return emails.filter((email) => email.destination.to.some((to) => addresses.includes(to)));
}

/**
 * Waits until the inbox holds `count` emails to `addresses`, then until the mail pipeline has
 * settled (`mailSettled`), and checks no more came meanwhile.
 */
export async function untilInboxHolds(
  t: TestRuntime,
  addresses: readonly string[],
  count: number,
): Promise<InboxEmail[]> {
  await expect.poll(async () => (await inboxFor(t, addresses)).length, { timeout: 20_000 }).toBe(count);
  await mailSettled(t);
  const held = await inboxFor(t, addresses);
  expect(held).toHaveLength(count);
  return held;
}

/** A mailer of the runtime's table, as the runtime's own is made, sending through `sendEmail`. */
export function testMailer(t: TestRuntime, delivery: 'ses' | 'capture', sendEmail: SendEmail) {
  return createMailer({
    sendEmail,
    delivery,
    fromAddress: 'invoices@merchant-payments.example',
    emailsPerMerchantPerHour: 100,
    publicBaseUrl: t.runtime.baseUrl,
    render: renderInvoiceEmail,
    renderNotice: renderEndpointNotice,
  });
}

/**
 * A reconciler whose mail queue hands each message straight to `mailer`, and the messages it
 * queued: what a run sends again of the emails whose message was lost.
 */
export function reconcilerThrough(mailer: ReturnType<typeof createMailer>) {
  const requeued: MailMessage[] = [];
  const reconcile = createReconciler({
    queue: { send: async () => undefined },
    mailQueue: {
      send: async (message) => {
        requeued.push(message);
        await mailer({ Records: [{ messageId: 'requeued', body: JSON.stringify(message) } as never] });
      },
    },
  });
  return { reconcile, requeued };
}
