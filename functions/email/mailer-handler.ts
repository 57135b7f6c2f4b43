import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { functionEnvironment } from '../config';
import { renderEndpointNotice } from './endpoint-notice';
import { renderInvoiceEmail } from './invoice-email';
import { createMailer } from './mailer';

const environment = functionEnvironment();

/** The stage's setting, or a line naming what the stack failed to give the function. */
function required<T>(name: string, value: T | undefined): T {
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
}

// The SDK's standard retries take SES's throttling and transient answers with backoff.
const ses = new SESv2Client({ maxAttempts: 4 });

export const handler = createMailer({
  sendEmail: (input) => ses.send(new SendEmailCommand(input)),
  delivery: required('EMAIL_DELIVERY', environment.EMAIL_DELIVERY),
  fromAddress: required('EMAIL_FROM_ADDRESS', environment.EMAIL_FROM_ADDRESS),
  configurationSet: environment.SES_CONFIGURATION_SET,
  emailsPerMerchantPerHour: environment.EMAILS_PER_MERCHANT_PER_HOUR,
  publicBaseUrl: required('PUBLIC_BASE_URL', environment.PUBLIC_BASE_URL),
  render: renderInvoiceEmail,
  renderNotice: renderEndpointNotice,
});
