import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The one structured logger. Log calls pass named fields, never request bodies or headers, so API
 * keys, signing secrets and pay-link slugs can't reach a log line (docs/decisions/logs.md).
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'merchant-payments' });
