import type { StageConfigFile } from '../lib/stage-config';

/**
 * The sandbox merchants test against, in an account of its own (placeholder: replace it). Without
 * `env` the stack deploys wherever the credentials point; a personal sandbox can do that from a
 * file of its own with `-c stageFile=…` (docs/deploying.md#fill-in-a-stage-file).
 */
export default {
  env: { account: '222222222222', region: 'eu-west-1' },
  alarmSubscribers: { email: ['payments-sandbox@example.com'] },
  throttle: { rateLimit: 100, burstLimit: 200 },
  publicRouteThrottle: { rateLimit: 20, burstLimit: 40 },
  // A merchant's test run is light: the reservoir alone traces most of it.
  traceSampling: { reservoirPerSecond: 1, fixedRate: 0.05 },
  logRetentionDays: 30,
  // A deployed sandbox never emails anyone: the mailer renders and records each email
  // (GET /invoices/{id}/emails) and has no permission to send (docs/decisions/email-infrastructure.md).
  email: {
    delivery: 'capture',
    fromAddress: 'invoices@sandbox.payments.example.com',
    emailsPerMerchantPerHour: 100,
  },
  // The sandbox keeps its simulator and test cards: no merchant's money moves here (docs/processor.md).
  processor: { kind: 'simulator' },
} satisfies StageConfigFile;
