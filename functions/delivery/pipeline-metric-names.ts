import { ServiceMetricNames } from '../observability/service-metrics';

/**
 * The delivery pipeline's own CloudWatch metrics, written as EMF lines by the dispatcher and the
 * reconciler and read by the stack's alarms and dashboard. One definition, so a renamed metric
 * breaks the build of both sides instead of leaving an alarm on a metric nothing emits.
 */
export const PipelineMetricNames = {
  namespace: ServiceMetricNames.namespace,
  /** Dimensions of every pipeline metric: the Powertools service name and the stage. */
  dimensions: ServiceMetricNames.dimensions,
  /** Reconciler, every run (0 included): pending deliveries past due by more than the grace. */
  overdueDeliveries: 'OverdueDeliveries',
  /** Dispatcher: one per HTTP attempt made (or simulated). */
  attempts: 'DeliveryAttempts',
  /** Dispatcher: an attempt the endpoint answered 2xx; the delivery is then succeeded. */
  succeeded: 'DeliveriesSucceeded',
  /** Dispatcher: an attempt that failed (non-2xx, timeout, refused address, network error). */
  failedAttempts: 'DeliveryAttemptsFailed',
  /** Dispatcher: a delivery whose last allowed attempt failed. */
  exhausted: 'DeliveriesExhausted',
  /** Dispatcher, milliseconds: from the event's creation to the start of its delivery's first attempt. */
  firstAttemptLag: 'FirstAttemptLag',
} as const;
