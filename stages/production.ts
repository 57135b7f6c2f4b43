import type { StageConfigFile } from '../lib/stage-config';

/**
 * The production stage. The account, the pager's URL and the addresses are placeholders: replace
 * them with your own before the first deploy (docs/deploying.md#fill-in-a-stage-file). `npx cdk synth -c
 * stage=production` refuses this file without a pinned account and region or without a subscriber.
 */
export default {
  env: { account: '111111111111', region: 'eu-west-1' },
  alarmSubscribers: {
    email: ['payments-oncall@example.com'],
    https: ['https://pager.example.com/integrations/cloudwatch/merchant-payments'],
  },
  throttle: { rateLimit: 1000, burstLimit: 2000 },
  // A payment is three requests from a person (page, invoice, pay): 20 a second is far above real use.
  publicRouteThrottle: { rateLimit: 20, burstLimit: 40 },
  // 1 % past one request a second: at the 1,000 requests/s throttle, 10 traces a second, plenty to
  // find a slow route; each traced request costs $5 per million (docs/performance.md#cost-model).
  traceSampling: { reservoirPerSecond: 1, fixedRate: 0.01 },
  logRetentionDays: 365,
  // Customer emails go out through SES from a DKIM-signed domain; its three CNAME records are the
  // stack's `EmailDkim…` outputs, to add to the domain's DNS (docs/operations.md#customer-emails).
  email: {
    delivery: 'ses',
    fromAddress: 'invoices@payments.example.com',
    identity: { domain: 'payments.example.com' },
    emailsPerMerchantPerHour: 100,
  },
  // Payments through Stripe Connect (docs/processor.md). These are the NAMES of two Secrets Manager
  // secrets in the stage's account and region, created by an operator; their values never appear here.
  processor: {
    kind: 'stripe',
    secretKeySecretName: 'merchant-payments/production/stripe-secret-key',
    webhookSigningSecretName: 'merchant-payments/production/stripe-connect-webhook-secret',
  },
} satisfies StageConfigFile;
