import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Stage } from '../../functions/config';

export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** What differs between the sandbox and the production stack; everything else is the same. */
export interface StageSettings {
  /** Applied to the table, the secrets key and the log groups. */
  readonly removalPolicy: RemovalPolicy;
  readonly tableDeletionProtection: boolean;
  readonly stackTerminationProtection: boolean;
  readonly logRetention: RetentionDays;
  /** Requests per second across the whole stage, and the bucket size for bursts. */
  readonly throttle: Throttle;
  /**
   * The same for each public pay route on its own, below the stage's: a second guard behind the web
   * ACL's per-address limit. It caps what all payers together, from however many addresses, can take
   * of the stage's budget, of Lambda concurrency and of processor calls, so a flood spread over many
   * addresses slows the pay page and not the merchants' API. A payment is three requests from a
   * person (page, invoice, pay), so 20 a second is far above real use at this size.
   */
  readonly publicRouteThrottle: Throttle;
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
    publicRouteThrottle: { rateLimit: 20, burstLimit: 40 },
    detailedMetrics: false,
  },
  production: {
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    stackTerminationProtection: true,
    logRetention: RetentionDays.ONE_YEAR,
    throttle: { rateLimit: 1000, burstLimit: 2000 },
    publicRouteThrottle: { rateLimit: 20, burstLimit: 40 },
    detailedMetrics: true,
  },
} as const satisfies Record<Stage, StageSettings>;
