import type { ReleasePipelineFile } from '../lib/release-pipeline-config';

/**
 * The release pipeline (`docs/operations.md#the-release-pipeline`), in a tools account of its own
 * (placeholders: replace them). It deploys the stages that `stages/sandbox.ts` and
 * `stages/production.ts` pin.
 */
export default {
  env: { account: '444444444444', region: 'eu-west-1' },
  connectionArn:
    'arn:aws:codeconnections:eu-west-1:444444444444:connection/00000000-0000-0000-0000-000000000000',
  repository: 'example/merchant-payments',
  branch: 'main',
  smoke: {
    sandbox: {
      merchantId: 'mer_00000000000000000000000000',
      keySecret: 'merchant-payments/sandbox/smoke-api-key',
    },
    production: {
      merchantId: 'mer_00000000000000000000000001',
      keySecret: 'merchant-payments/production/smoke-api-key',
    },
  },
  sandboxReceiverUrl: 'https://smoke-receiver.example.com/webhooks',
} satisfies ReleasePipelineFile;
