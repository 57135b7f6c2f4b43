import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Stage } from '../../functions/config';

/** What differs between the sandbox and the production stack; everything else is the same. */
export interface StageSettings {
  /** Applied to the table, the secrets key and the log groups. */
  readonly removalPolicy: RemovalPolicy;
  readonly tableDeletionProtection: boolean;
  readonly stackTerminationProtection: boolean;
  readonly logRetention: RetentionDays;
  /** Requests per second across the whole stage, and the bucket size for bursts. */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  /** Per-method CloudWatch metrics are billed per metric, so only production pays for them. */
  readonly detailedMetrics: boolean;
}

export const stageSettings = {
  sandbox: {
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    stackTerminationProtection: false,
    logRetention: RetentionDays.ONE_MONTH,
    throttle: { rateLimit: 100, burstLimit: 200 },
    detailedMetrics: false,
  },
  production: {
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    stackTerminationProtection: true,
    logRetention: RetentionDays.ONE_YEAR,
    throttle: { rateLimit: 1000, burstLimit: 2000 },
    detailedMetrics: true,
  },
} as const satisfies Record<Stage, StageSettings>;
