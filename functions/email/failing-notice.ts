import { newEndpointNotice } from '../domain/endpoint-notice';
import { isoTimestamp } from '../domain/time';
import { logger } from '../observability/logger';
import { putNewNotice } from '../store/invoice-emails';
import { getMerchant } from '../store/merchants';
import type { StoredWebhookEndpoint } from '../store/webhook-endpoints';
import { type MailQueue, noticeMessageOf } from './mail-message';

/**
 * The notice an endpoint's record calls for, if any: the dispatcher marked a notice the record
 * before did not have (docs/emails.md#failing-endpoints). A merchant's own change of the endpoint
 * keeps the mark as it was, so it calls for none.
 */
export function failingNoticeCalledFor(
  previous: StoredWebhookEndpoint,
  stored: StoredWebhookEndpoint,
): boolean {
  const notice = stored.failingNotice;
  return (
    notice !== undefined &&
    stored.endpoint.failingSince !== undefined &&
    previous.failingNotice?.after !== notice.after
  );
}

/**
 * Makes the endpoint's failing notice for the merchant's notification address, only where it does
 * not exist yet, and queues it (again, on a replay: the mailer sends it only while it is queued).
 * A merchant without a notification address gets none, and the line says so. Returns its id.
 */
export async function sendFailingNotice(
  stored: StoredWebhookEndpoint,
  queue: MailQueue,
  now: Date,
): Promise<string | undefined> {
  const { endpoint, failingNotice } = stored;
  if (failingNotice === undefined || endpoint.failingSince === undefined) return undefined;
  const fields = {
    endpointId: endpoint.webhookEndpointId,
    merchantId: endpoint.merchantId,
    after: failingNotice.after,
  };
  const recipient = (await getMerchant(endpoint.merchantId))?.notificationEmail;
  if (recipient === undefined) {
    logger.info('endpoint failing notice not made: the merchant has no notification email', fields);
    return undefined;
  }
  const notice = newEndpointNotice({
    merchantId: endpoint.merchantId,
    webhookEndpointId: endpoint.webhookEndpointId,
    url: endpoint.url,
    failingSince: endpoint.failingSince,
    after: failingNotice.after,
    lastError: failingNotice.lastError,
    lastAttemptAt: failingNotice.at,
    recipient,
    now: isoTimestamp(now),
  });
  await putNewNotice(notice);
  await queue.send(noticeMessageOf(notice));
  logger.info('endpoint failing notice queued', { ...fields, emailId: notice.emailId });
  return notice.emailId;
}
