import { RemovalPolicy } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Stage } from '../../functions/config';
import type { StageConfig } from '../stage-config';

export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/**
 * What differs between the sandbox and the production stack; everything else is the same. The
 * retention and the throttles come from the stage file (`stages/<stage>.ts`), the rest from here.
 */
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
  /** Where the stage's alarms go off (docs/operations.md explains each one). */
  readonly alarmThresholds: AlarmThresholds;
}

/**
 * The thresholds that differ by stage. Queue depths, errors of the pipeline functions, overdue
 * deliveries and DynamoDB system errors alarm on the first occurrence in both stages: each is a
 * delivery at risk, whatever the stage.
 */
export interface AlarmThresholds {
  /** Share of the stage's API requests answered 5xx over 5 minutes (0.01 = 1 %). */
  readonly api5xxRate: number;
  /** p99 of API Gateway's Latency over 5 minutes, in milliseconds. */
  readonly apiP99LatencyMs: number;
  /** Throttled table requests (reads and writes, every operation) in 5 minutes. */
  readonly tableThrottledRequests: number;
  /** 5-minute periods in a row over the threshold before the latency and 5xx alarms go off. */
  readonly apiEvaluationPeriods: number;
}

/** What the operator sets in the stage file; see `lib/stage-config.ts`. */
type ConfiguredSettings = 'logRetention' | 'throttle' | 'publicRouteThrottle';

/** The settings of a stage that are not an operator's to edit: its removal and protection rules. */
export const stageSettings = {
  sandbox: {
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    stackTerminationProtection: false,
    detailedMetrics: false,
    // The sandbox is for merchants' tests: it alarms on sustained trouble, not on one bad minute.
    alarmThresholds: {
      api5xxRate: 0.05,
      apiP99LatencyMs: 5000,
      tableThrottledRequests: 50,
      apiEvaluationPeriods: 3,
    },
  },
  production: {
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    stackTerminationProtection: true,
    detailedMetrics: true,
    // Production: one 5-minute period past the line is already a merchant-visible failure.
    alarmThresholds: {
      api5xxRate: 0.01,
      apiP99LatencyMs: 2000,
      tableThrottledRequests: 1,
      apiEvaluationPeriods: 1,
    },
  },
} as const satisfies Record<Stage, Omit<StageSettings, ConfiguredSettings>>;

/** The whole settings of a stage: its fixed rules and what its stage file sets. */
export function settingsOf(stage: Stage, config: StageConfig): StageSettings {
  return {
    ...stageSettings[stage],
    // The schema accepts only CloudWatch Logs' own retention periods, each a RetentionDays value.
    logRetention: config.logRetentionDays as RetentionDays,
    throttle: config.throttle,
    publicRouteThrottle: config.publicRouteThrottle,
  };
}
