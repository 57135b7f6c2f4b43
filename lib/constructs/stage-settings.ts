import { RemovalPolicy } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { payPageRoutes } from '../../functions/api/pay/routes';
import type { portalSessionRoutes } from '../../functions/api/portal-sessions/routes';
import type { processorEventRoutes } from '../../functions/api/processor-events/routes';
import type { Stage } from '../../functions/config';
import type { portalPageRoutes } from '../../functions/portal/routes';
import type { StageConfig, TraceSampling } from '../stage-config';
import { RolloutPace } from './safe-rollout';

export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** At most `requests` in any `windowSeconds` (60, 120, 300 or 600: the windows WAF offers). */
export interface RequestCeiling {
  readonly requests: number;
  readonly windowSeconds: 60 | 120 | 300 | 600;
}

/**
 * The operationIds of the public routes (the pay page's, the portal's and Stripe's webhook), each of
 * which gets its own reserved concurrency.
 */
export type PublicRouteOperationId =
  | keyof typeof payPageRoutes
  | keyof typeof portalPageRoutes
  | keyof Pick<typeof portalSessionRoutes, 'exchangePortalLink'>
  | keyof typeof processorEventRoutes;

/**
 * Lambda concurrency set aside for one function: it always gets that much, and never more. It is
 * taken out of the account's pool per region, which every stage deployed there shares.
 */
export interface ReservedConcurrency {
  readonly authorizer: number;
  readonly publicRoutes: Readonly<Record<PublicRouteOperationId, number>>;
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
  /**
   * What one API key may send to the merchant routes, whatever it calls: the web ACL counts the
   * requests per `Authorization` header and answers 429 `rate_limited` past it, so one merchant's
   * loop takes a share of `throttle`, never all of it (docs/decisions/noisy-neighbours.md).
   */
  readonly apiKeyCeiling: RequestCeiling;
  /**
   * Reserved for the authorizer, which every merchant request needs, and for each pay route, whose
   * flood it also caps so the merchant routes keep the account's unreserved pool
   * (docs/decisions/noisy-neighbours.md).
   */
  readonly reservedConcurrency: ReservedConcurrency;
  /**
   * The stage's X-Ray sampling rule for its API, which the authorizer and the routes follow; the
   * delivery pipeline is not traced (docs/decisions/x-ray-sampling-set-per-stage.md).
   */
  readonly traceSampling: TraceSampling;
  /** Per-method CloudWatch metrics are billed per metric, so only production pays for them. */
  readonly detailedMetrics: boolean;
  /**
   * How a deploy moves traffic to the new versions of the authorizer, the pay routes, the router
   * and the dispatcher (`docs/operations.md#rolling-out-and-back`).
   */
  readonly rollout: RolloutPace;
  /** Where the stage's alarms go off (docs/operations.md explains each one). */
  readonly alarmThresholds: AlarmThresholds;
}

/**
 * How an API alarm judges its metric: the period, how many of the last `evaluationPeriods` must be
 * past the line (M of N), and the requests a period needs before its rate or latency counts at all.
 */
export interface ApiAlarmEvaluation {
  readonly periodMinutes: number;
  readonly datapointsToAlarm: number;
  readonly evaluationPeriods: number;
  /** Below this many requests in a period the period is healthy, whatever its 5xx share or p99. */
  readonly minimumRequests: number;
}

/**
 * The webhook success rate alarm: attempts answered 2xx as a share of all attempts, judged only in a
 * period with at least `minimumAttempts` attempts.
 */
export interface WebhookSuccessThreshold {
  readonly minimumRate: number;
  readonly minimumAttempts: number;
}

/**
 * The alarms on Stripe's webhook, each a count over 5 minutes (docs/operations.md). Production only:
 * the sandbox has no Stripe and no such route.
 */
export interface StripeEventThresholds {
  /** Requests to the webhook whose `Stripe-Signature` did not verify (none, wrong secret, too old). */
  readonly signatureFailures: number;
  /** Verified events processed more than 15 minutes after Stripe created them. */
  readonly lateEvents: number;
  /** Verified events recorded `unknown_account` or `unknown_object`. */
  readonly unknownEvents: number;
}

/**
 * The thresholds that differ by stage (docs/operations.md "Thresholds" explains each). Queue depths
 * and age, errors of the pipeline functions, overdue deliveries and DynamoDB system errors alarm
 * the same way in both stages: each is a delivery at risk, whatever the stage.
 */
export interface AlarmThresholds {
  /** Share of the stage's API requests answered 5xx in one period (0.01 = 1 %). */
  readonly api5xxRate: number;
  /** p99 of API Gateway's Latency in one period, in milliseconds. */
  readonly apiP99LatencyMs: number;
  /** Period, M of N and traffic floor of the two alarms above. */
  readonly apiEvaluation: ApiAlarmEvaluation;
  /** Throttled table requests (reads and writes, every operation) in 5 minutes. */
  readonly tableThrottledRequests: number;
  /** Requests API Gateway answered 500 because the authorizer failed (not a refused key), in 5 minutes. */
  readonly authorizerFailures: number;
  /** 5xx answers of the public pay routes (API Gateway's, crashes and timeouts included), in 5 minutes. */
  readonly payRouteServerErrors: number;
  /** Payment processor calls that failed to get an answer (not declines), in 5 minutes. */
  readonly processorErrors: number;
  /** Throttled invocations of the authorizer, the pay routes and the pipeline functions, in 5 minutes. */
  readonly criticalFunctionThrottles: number;
  /**
   * The account's concurrent Lambda executions in the region (every function, every stack): 80 % of
   * the default quota of 1,000. Set it to 80 % of `aws lambda get-account-settings`'
   * `ConcurrentExecutions` when the account's quota differs.
   */
  readonly accountConcurrentExecutions: number;
  /** Requests the web ACL blocked (every rule), in 5 minutes. */
  readonly webAclBlockedRequests: number;
  /** Absent: no alarm on the webhook success rate in this stage. */
  readonly webhookSuccess?: WebhookSuccessThreshold;
  /** Absent: no alarms on Stripe's events in this stage (it has no Stripe webhook). */
  readonly stripeEvents?: StripeEventThresholds;
}

/** What the operator sets in the stage file; see `lib/stage-config.ts`. */
type ConfiguredSettings = 'logRetention' | 'throttle' | 'publicRouteThrottle' | 'traceSampling';

/** The settings of a stage that are not an operator's to edit: its removal and protection rules. */
export const stageSettings = {
  sandbox: {
    removalPolicy: RemovalPolicy.DESTROY,
    tableDeletionProtection: false,
    stackTerminationProtection: false,
    // A fifth of the stage: a merchant's test suite runs at full speed and still leaves the rest.
    apiKeyCeiling: { requests: 1200, windowSeconds: 60 },
    // The sandbox's processor answers at once, so a few instances carry each pay route's throttle.
    reservedConcurrency: {
      authorizer: 10,
      publicRoutes: {
        ...{ servePayPage: 5, getPayInvoice: 5, payInvoice: 10 },
        // Production only: the sandbox pays on its own page.
        createCheckoutSession: 1,
        // A portal page is one read; its assets are cached by the browser for a year. A link is
        // opened once per visit.
        ...{ servePortalPage: 2, servePortalAsset: 2, exchangePortalLink: 2 },
        // Production only: the sandbox has no Stripe and no such route.
        receiveStripeEvent: 1,
      },
    },
    detailedMetrics: false,
    // Merchants' tests make too little traffic for a 10 % canary to see anything in 5 minutes;
    // the pipeline's smoke test is the sandbox's check, and the alias is still the way back.
    rollout: RolloutPace.allAtOnce,
    // The sandbox is for merchants' tests: it alarms on sustained trouble, not on one bad minute.
    // No webhook success rate: its receivers are merchants' test endpoints, often down, and its
    // failure simulation fails attempts on purpose (docs/decisions/alarms-on-systemic-failure.md).
    alarmThresholds: {
      api5xxRate: 0.05,
      apiP99LatencyMs: 5000,
      apiEvaluation: { periodMinutes: 5, datapointsToAlarm: 3, evaluationPeriods: 3, minimumRequests: 20 },
      tableThrottledRequests: 50,
      authorizerFailures: 10,
      payRouteServerErrors: 10,
      processorErrors: 3,
      criticalFunctionThrottles: 20,
      accountConcurrentExecutions: 800,
      webAclBlockedRequests: 1000,
    },
  },
  production: {
    removalPolicy: RemovalPolicy.RETAIN,
    tableDeletionProtection: true,
    stackTerminationProtection: true,
    // A tenth of the stage: 100 requests a second, sustained, from one key.
    apiKeyCeiling: { requests: 6000, windowSeconds: 60 },
    // The authorizer: the whole stage throttle of unknown keys at 50 ms each. A payment waits on the
    // processor, up to 2 s, at the route's 20 a second.
    reservedConcurrency: {
      authorizer: 50,
      publicRoutes: {
        // A Checkout Session is one call to Stripe, up to 2 s, at the route's 20 a second; the card
        // form's route is the sandbox's only.
        ...{ servePayPage: 10, getPayInvoice: 10, payInvoice: 1, createCheckoutSession: 40 },
        ...{ servePortalPage: 5, servePortalAsset: 2, exchangePortalLink: 5 },
        // One read and one write an event: Stripe's bursts (an outage's backlog) wait here, never on
        // the merchants' pool, and Stripe retries what a throttle refused.
        receiveStripeEvent: 10,
      },
    },
    detailedMetrics: true,
    rollout: RolloutPace.canary,
    // Production: three bad minutes out of five page, so one slow or failing minute (a deploy's
    // cold starts, a retried blip) does not, and a minute of fewer than 50 requests (where one error
    // is 2 %) never counts.
    alarmThresholds: {
      api5xxRate: 0.01,
      apiP99LatencyMs: 2000,
      apiEvaluation: { periodMinutes: 1, datapointsToAlarm: 3, evaluationPeriods: 5, minimumRequests: 50 },
      tableThrottledRequests: 1,
      authorizerFailures: 3,
      payRouteServerErrors: 5,
      processorErrors: 3,
      criticalFunctionThrottles: 5,
      accountConcurrentExecutions: 800,
      webAclBlockedRequests: 300,
      webhookSuccess: { minimumRate: 0.5, minimumAttempts: 50 },
      stripeEvents: {
        // A stray POST or a replayed capture is one or two; a signing secret that no longer matches
        // (a roll done out of order) refuses every delivery and Stripe's retries of each, so it
        // passes 3 within minutes of any traffic, while no event reaches an invoice.
        signatureFailures: 3,
        // Stripe delivers in seconds: one event 15 minutes old means deliveries failed or were held
        // up (or a replay, which the runbook expects), and payers may be waiting for their invoice.
        lateEvents: 1,
        // The platform opens every connected account and every PaymentIntent it pays from, so one
        // event of anything else is a linking fault or a payment made outside the service.
        unknownEvents: 1,
      },
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
    traceSampling: config.traceSampling,
  };
}
